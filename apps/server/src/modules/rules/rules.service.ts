import { createHash, randomUUID } from 'node:crypto';
import {
  ALERT_KINDS,
  DEFAULT_ALERT_THRESHOLDS,
  type AlertKind,
  type RuleAlert,
  rulePresetSchema,
  ruleSetSchema,
  type Rule,
  type RulePresetId,
  type RuleKind,
  type RuleSet,
  type RuleStatus,
  type RuleTradeBreak,
  type TradeRuleBreak,
  type StoredRuleSet,
} from '@pipsense/contract';
import {
  compareDecimals,
  divideDecimals,
  groupDecimal,
  multiplyDecimals,
  negateDecimal,
  roundDecimal,
  signOf,
  sumDecimals,
} from '../../domain/decimal';
import { noDailyRates, type DailyRates } from '../../domain/currency-totals';
import { initialRiskOf } from '../../domain/risk';
import { badRequest, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import {
  DayBoundary,
  RULE_PRESETS,
  boundaryOf,
  evaluateRules,
  presetOf,
  type RuleEvaluation,
  type RuleInputs,
  type RuleTrade,
} from './engine';
import type { RuleSources, RuleTradeFacts } from './ports';
import type { RuleAlertRow, RuleSetRow, RulesRepository } from './rules.repository';
import type { RuleDayStore } from './day-store';
import { createStoredDays } from './stored-days';

export interface RulesDeps {
  repository: RulesRepository;
  sources: RuleSources;
  now: () => Date;
  /**
   * Where alerts are mailed (docs/rules.md, Alerts): the mailer, the user's confirmed address or null (auth's
   * `noticeAddress`: no mail then), the log.
   */
  alerts?: {
    mailer: Pick<Mailer, 'send'>;
    emailOf: (userId: string) => Promise<string | null>;
    log: (err: unknown, context: Record<string, unknown>) => void;
  };
  /** The stored day records (docs/rules.md, Status); without it every answer is a whole pass. */
  days?: RuleDayStore | undefined;
}

interface RuleSetFields {
  name?: string | undefined;
  startTime?: string | undefined;
  initialBalance?: string | undefined;
  rules?: Rule[] | undefined;
  alertThresholds?: number[] | undefined;
  emailAlerts?: boolean | undefined;
}

const toStored = (row: RuleSetRow): StoredRuleSet => ({
  id: row.id,
  accountId: row.account_key,
  name: row.name,
  preset: row.preset as RulePresetId | null,
  startTime: row.start_time,
  initialBalance: row.initial_balance,
  rules: JSON.parse(row.rules) as Rule[],
  alertThresholds: JSON.parse(row.alert_thresholds) as number[],
  emailAlerts: row.email_alerts === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The contract's check of a whole set, its first failure named by its field (docs/rules.md, The function). */
function checked(set: unknown): RuleSet {
  const parsed = ruleSetSchema.safeParse(set);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0]!;
  const field = first.path.join('.');
  throw badRequest(
    field && !first.message.startsWith(String(first.path.at(-1))) ? `${field}: ${first.message}` : first.message,
  );
}

/** A preset's rules with the given ones in place of the preset's rule of the same kind, the others after them. */
function mergedRules(preset: RulePresetId | undefined, given: readonly Rule[]): unknown[] {
  if (!preset) return [...given];
  const base: Array<{ kind: string }> = [...presetOf(preset).rules];
  const extra: Rule[] = [];
  for (const rule of given) {
    const at = base.findIndex((r) => r.kind === rule.kind);
    if (at >= 0) base[at] = rule;
    else extra.push(rule);
  }
  return [...base, ...extra];
}

/**
 * The risk taken at a trade's open in the account currency (docs/rules.md, Inputs): units × |entry − initial
 * stop| (domain/risk.ts, the distance behind R), in the quote currency, converted when the account's currency is
 * the instrument's base (at the stop's price, where the loss would be booked), or else at the daily rate of the
 * quote currency into the account's on the open's UTC day (domain/currency-totals.ts, DailyRates: the same rates
 * the Overview converts with). Null without a stop, or when no rate is known (4 decimals when converted).
 */
export async function riskAtOpenOf(
  t: RuleTradeFacts,
  currency: string | null,
  rates: DailyRates = noDailyRates,
): Promise<string | null> {
  const risk = initialRiskOf({
    instrument: t.instrument,
    initialUnits: t.initialUnits,
    price: t.price,
    averageClosePrice: t.averageClosePrice,
    initialStopLossPrice: t.initialStopLossPrice,
  });
  if (!risk || currency === null) return null;
  const [base, quote] = t.instrument.split('_');
  const units = signOf(t.initialUnits) < 0 ? negateDecimal(t.initialUnits) : t.initialUnits;
  const inQuote = multiplyDecimals(units, risk.distance);
  if (quote === currency) return inQuote;
  if (base === currency) return divideDecimals(inQuote, risk.stopLossPrice, 4);
  const rate = quote === undefined ? null : await rates.rate(quote, currency, t.openTime.slice(0, 10));
  return rate === null ? null : roundDecimal(multiplyDecimals(inQuote, rate), 4);
}

/** What an alert says of a loss limit's use: the one wording of the app's list and the email (docs/rules.md, Alerts). */
export function alertText(a: {
  ruleSetName: string;
  kind: AlertKind;
  threshold: number;
  currency: string;
  limit: string;
  used: string;
  remaining: string;
  /** The daily reset: "17:00" and its zone. */
  resetTime: string;
  zone: string;
}): { subject: string; message: string } {
  // An account whose currency no report named (a CSV import): the amounts alone.
  const unit = a.currency ? ` ${a.currency}` : '';
  const amount = (value: string) => groupDecimal(value, 2);
  const what = a.kind === 'daily_loss' ? "today's loss limit" : 'the maximum loss';
  const until = a.kind === 'daily_loss' ? ` until the reset at ${a.resetTime} ${a.zone}` : '';
  const left =
    signOf(a.remaining) > 0
      ? `${amount(a.remaining)}${unit} left${until}.`
      : `nothing left${until}: the limit is reached.`;
  return {
    subject: `PipSense alert: ${a.threshold} % of ${what} used (${a.ruleSetName})`,
    message: `${a.ruleSetName}: ${a.threshold} % of ${what} used — ${amount(a.used)}${unit} of ${amount(a.limit)}; ${left}`,
  };
}

const toAlert = (row: RuleAlertRow & { rule_set_name: string; account_key: string }): RuleAlert => ({
  id: row.id,
  ruleSetId: row.rule_set_id,
  ruleSetName: row.rule_set_name,
  accountId: row.account_key,
  kind: row.kind as AlertKind,
  threshold: row.threshold,
  percentUsed: Number(row.percent_used),
  day: row.day,
  time: row.created_at,
  currency: row.currency,
  limit: row.limit,
  used: row.used,
  remaining: row.remaining,
  message: row.message,
  readAt: row.read_at,
});

/** The rules broken by a trade, each listed in the break answer (docs/rules.md, Rules). */
const TRADE_LEVEL_KINDS: ReadonlySet<RuleKind> = new Set([
  'max_risk_per_trade',
  'max_trades_per_day',
  'max_consecutive_losses',
  'no_weekend_holding',
]);

/**
 * The trading day the break index is computed in: days end at the forex weekly close's hour (17:00 New York), so
 * that a position held across a weekly close (no_weekend_holding) gets its break in the next index without a write.
 */
const TRADING_DAY = new DayBoundary('17:00', 'America/New_York');

/** Users whose break index is kept in memory (the latest of each). */
const BREAK_INDEXES_KEPT = 1000;

/** The breaks of the user's rule sets by trade, and what they are computed from (trade-views' RuleBreakIndex). */
export interface BreakIndex {
  version: string;
  hasTradeRules: boolean;
  byTrade: ReadonlyMap<string, readonly TradeRuleBreak[]>;
}

/** Rule sets of the user's accounts (docs/rules.md, API): stored here, evaluated by the engine on the owners' data. */
export function createRulesService(deps: RulesDeps) {
  const { repository, sources } = deps;
  /** Alert mails still being sent (settle waits for them). */
  const pending = new Set<Promise<void>>();
  /** The latest break index per user, by its version (`breakIndex`). */
  const indexes = new Map<string, { version: string; index: Promise<BreakIndex> }>();

  async function account(userId: string, accountId: string) {
    const named = await sources.named(userId, accountId);
    if (named.length === 0)
      throw notFound(`accountId: no account of yours has the key or login ${JSON.stringify(accountId)}.`);
    if (named.length > 1)
      throw badRequest(
        `accountId: ${JSON.stringify(accountId)} names ${named.length} of your accounts. Use the account key instead of the login.`,
        'AMBIGUOUS_ACCOUNT',
      );
    return named[0]!;
  }

  async function owned(userId: string, id: string) {
    const row = await repository.find(userId, id);
    if (!row) throw notFound(`id: no rule set of yours has the id ${JSON.stringify(id)}.`);
    return row;
  }

  /** The balance B(t) at `time` and the first booking's time, from the money module. */
  async function balanceAt(userId: string, accountKey: string, time: string) {
    const { points } = await sources.balanceHistory(userId, accountKey, time);
    return { first: points[0]?.time ?? null, balance: points.at(-1)?.balance ?? null };
  }

  async function defaultsFor(
    userId: string,
    accountKey: string,
    startTime: string | undefined,
    initial: string | undefined,
  ) {
    const now = deps.now().toISOString();
    const start = startTime ?? (await balanceAt(userId, accountKey, now)).first ?? now;
    if (initial !== undefined) return { startTime: start, initialBalance: initial };
    const { balance } = await balanceAt(userId, accountKey, start);
    if (balance === null || signOf(balance) <= 0)
      throw badRequest(
        `initialBalance: the account's balance at ${start} is ${balance ?? 'unknown'}; give initialBalance, an amount above 0.`,
      );
    return { startTime: start, initialBalance: balance };
  }

  /** The engine's inputs for a set, read through the owners (docs/rules.md, Inputs), up to `at`. */
  async function inputsOf(userId: string, accountKey: string, at: string): Promise<RuleInputs> {
    const [named, trades, cashFlows, history] = await Promise.all([
      sources.named(userId, accountKey),
      sources.trades(userId, accountKey),
      sources.cashFlows(userId, accountKey),
      sources.balanceHistory(userId, accountKey, at),
    ]);
    const currency = named.find((a) => a.accountKey === accountKey)?.currency ?? null;
    const rates = sources.rates?.(userId) ?? noDailyRates;
    return {
      currency: currency ?? '',
      trades: await Promise.all(
        trades.map(async (t): Promise<RuleTrade> => ({
          key: t.tradeId,
          instrument: t.instrument,
          openTime: t.openTime,
          closeTime: t.closeTime,
          // What the close books: P/L plus financing, as the money module books it (docs/money.md).
          realizedPL: sumDecimals([t.realizedPL, t.financing]),
          riskAtOpen: await riskAtOpenOf(t, currency, rates),
        })),
      ),
      cashFlows: cashFlows.map((f) => ({ time: f.time, type: f.type, amount: f.amount })),
      equity: {
        points: history.points.map((p) => ({ time: p.time, equity: p.equity })),
        equityComplete: history.equityComplete,
        // No reading from samples or candles at all: an import without an equity source (closed-only basis).
        equityUnknown: history.points.every((p) => p.equitySource === null),
      },
    };
  }

  const storedDays = deps.days ? createStoredDays(deps.days) : undefined;

  function ruleSetOf(row: RuleSetRow) {
    const { preset, ...set } = toStored(row);
    return ruleSetSchema.parse({ ...set, ...(preset === null ? {} : { preset }) });
  }

  function checkedAt(row: RuleSetRow, atText?: string): string {
    const at = atText ?? deps.now().toISOString();
    if (Date.parse(at) < Date.parse(row.start_time))
      throw badRequest(`at: ${at} is before the rule set starts (${row.start_time}).`);
    return at;
  }

  /**
   * The set at `at` (default now). Now is answered from the stored day records (stored-days.ts), recomputed from the
   * first day whose inputs changed; an instant asked for is a whole pass.
   */
  async function evaluate(userId: string, row: RuleSetRow, atText?: string): Promise<RuleEvaluation> {
    const at = checkedAt(row, atText);
    const set = ruleSetOf(row);
    if (!storedDays || atText !== undefined) return evaluateRules(set, await inputsOf(userId, row.account_key, at), at);
    // The version first: a write after it is seen by the next answer.
    const version = await sources.dataVersion(userId);
    return storedDays.evaluate({ setId: row.id, userId, stamp: row.updated_at }, set, version, at, () =>
      inputsOf(userId, row.account_key, at),
    );
  }

  /** One rule set's alerts now; answers how many this call stored. */
  async function checkSet(userId: string, row: RuleSetRow, at: string): Promise<number> {
    const stored = toStored(row);
    const { status, days } = await evaluate(userId, row, at);
    const day = days.find((d) => d.start === status.today.start)?.date ?? days.at(-1)?.date;
    if (day === undefined || stored.alertThresholds.length === 0) return 0;
    const boundary = boundaryOf(stored);
    let count = 0;
    for (const kind of ALERT_KINDS) {
      const line = status.rules.find((l) => l.kind === kind);
      if (!line || line.unit !== 'money' || line.percentUsed === null) continue;
      const { limit, used, remaining, percentUsed } = line;
      if (limit === null || used === null || remaining === null) continue;
      const reached = stored.alertThresholds.filter((t) => compareDecimals(String(t), percentUsed) <= 0);
      if (reached.length === 0) continue;
      const subjects = new Map<string, string>();
      const rows = reached.map((threshold): RuleAlertRow => {
        const text = alertText({
          ruleSetName: row.name,
          kind,
          threshold,
          currency: status.currency,
          limit,
          used,
          remaining,
          resetTime: boundary.resetTime,
          zone: boundary.zone,
        });
        const id = randomUUID();
        subjects.set(id, text.subject);
        return {
          id,
          user_id: userId,
          rule_set_id: row.id,
          kind,
          day,
          threshold,
          percent_used: percentUsed,
          currency: status.currency,
          limit,
          used,
          remaining,
          message: text.message,
          created_at: at,
          read_at: null,
          emailed_at: null,
        };
      });
      const insertedIds = await repository.insertAlerts(rows);
      const inserted = rows.filter((r) => insertedIds.has(r.id));
      count += inserted.length;
      if (inserted.length > 0 && stored.emailAlerts)
        mailLater(userId, row, inserted, subjects.get(inserted.at(-1)!.id)!);
    }
    return count;
  }

  /**
   * One mail per rule set and kind a check stored alerts of: its subject the highest threshold reached, its text
   * every alert stored. Sent apart from the check (a sync never waits for SMTP); a failure is logged.
   */
  function mailLater(userId: string, set: RuleSetRow, inserted: RuleAlertRow[], subject: string) {
    const alerts = deps.alerts;
    if (!alerts) return;
    const run = (async () => {
      const to = await alerts.emailOf(userId);
      if (!to) return;
      await alerts.mailer.send({
        to,
        subject,
        text: `${inserted.map((a) => a.message).join('\n')}\n\nAccount: ${set.account_key}. Your alerts are listed in PipSense under My Rules, where the rule set's email alerts can be turned off.`,
      });
      await repository.markEmailed(
        inserted.map((a) => a.id),
        deps.now().toISOString(),
      );
    })().catch((error: unknown) =>
      alerts.log(error, { userId, ruleSetId: set.id, step: 'rule alert email (the alert is stored)' }),
    );
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  /** The status now: the stored one when current (no input read), else as `evaluate`. */
  async function statusOf(userId: string, row: RuleSetRow, atText?: string): Promise<RuleStatus> {
    if (storedDays && atText === undefined) {
      const at = checkedAt(row);
      const known = await storedDays.status(row.id, row.updated_at, await sources.dataVersion(userId), at);
      if (known) return known;
    }
    return (await evaluate(userId, row, atText)).status;
  }

  return {
    presets() {
      return RULE_PRESETS.map((p) => rulePresetSchema.parse(p));
    },

    async list(userId: string): Promise<StoredRuleSet[]> {
      return (await repository.list(userId)).map(toStored);
    },

    async create(
      userId: string,
      body: RuleSetFields & { accountId: string; name: string; preset?: RulePresetId | undefined; rules: Rule[] },
    ): Promise<StoredRuleSet> {
      const { accountKey } = await account(userId, body.accountId);
      const rules = mergedRules(body.preset, body.rules);
      const { startTime, initialBalance } = await defaultsFor(userId, accountKey, body.startTime, body.initialBalance);
      const set = checked({
        accountId: accountKey,
        name: body.name,
        preset: body.preset,
        startTime,
        initialBalance,
        rules,
      });
      const now = deps.now().toISOString();
      const row: RuleSetRow = {
        id: randomUUID(),
        user_id: userId,
        account_key: accountKey,
        name: set.name,
        preset: set.preset ?? null,
        start_time: set.startTime,
        initial_balance: set.initialBalance,
        rules: JSON.stringify(set.rules),
        alert_thresholds: JSON.stringify(body.alertThresholds ?? DEFAULT_ALERT_THRESHOLDS),
        email_alerts: body.emailAlerts === true ? 1 : 0,
        created_at: now,
        updated_at: now,
      };
      await repository.insert(row);
      return toStored(row);
    },

    async edit(userId: string, id: string, body: RuleSetFields): Promise<StoredRuleSet> {
      const row = await owned(userId, id);
      const stored = toStored(row);
      const set = checked({
        ...stored,
        preset: stored.preset ?? undefined,
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.startTime === undefined ? {} : { startTime: body.startTime }),
        ...(body.initialBalance === undefined ? {} : { initialBalance: body.initialBalance }),
        ...(body.rules === undefined ? {} : { rules: body.rules }),
      });
      const values = {
        name: set.name,
        start_time: set.startTime,
        initial_balance: set.initialBalance,
        rules: JSON.stringify(set.rules),
        alert_thresholds:
          body.alertThresholds === undefined ? row.alert_thresholds : JSON.stringify(body.alertThresholds),
        email_alerts: body.emailAlerts === undefined ? row.email_alerts : body.emailAlerts ? 1 : 0,
        updated_at: deps.now().toISOString(),
      };
      await repository.update(userId, id, values);
      await storedDays?.forget(id);
      return toStored({ ...row, ...values });
    },

    async remove(userId: string, id: string): Promise<void> {
      await owned(userId, id);
      await storedDays?.forget(id);
      if (!(await repository.remove(userId, id)))
        throw notFound(`id: no rule set of yours has the id ${JSON.stringify(id)}.`);
    },

    async status(userId: string, id: string, at?: string) {
      return statusOf(userId, await owned(userId, id), at);
    },

    async days(userId: string, id: string, range: { from?: string | undefined; to?: string | undefined }) {
      const { days } = await evaluate(userId, await owned(userId, id));
      return days.filter((d) => (!range.from || d.end > range.from) && (!range.to || d.start <= range.to));
    },

    /** The trades that broke a trade-level rule of the user's rule sets (of one account when named), now. */
    async breaks(
      userId: string,
      query: { from?: string | undefined; to?: string | undefined; accountId?: string | undefined },
    ): Promise<RuleTradeBreak[]> {
      const key = query.accountId === undefined ? undefined : (await account(userId, query.accountId)).accountKey;
      const rows = (await repository.list(userId)).filter((r) => key === undefined || r.account_key === key);
      const out: RuleTradeBreak[] = [];
      for (const row of rows) {
        if (Date.parse(row.start_time) > deps.now().getTime()) continue;
        const rules = toStored(row).rules;
        for (const b of (await evaluate(userId, row)).breaks) {
          if (b.tradeKey === null) continue;
          if ((query.from && b.time < query.from) || (query.to && b.time > query.to)) continue;
          const rule = rules.find((r) => r.kind === b.kind)!;
          out.push({
            ruleSetId: row.id,
            ruleSetName: row.name,
            accountId: row.account_key,
            tradeKey: b.tradeKey,
            kind: b.kind,
            time: b.time,
            rule,
          });
        }
      }
      return out.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
    },

    /**
     * The alert check of an account (docs/rules.md, Alerts), after a sync or an import touched it: each started rule
     * set's status now; per loss limit (daily_loss, max_loss), an alert for each threshold its use reached, once per
     * rule set, kind, local day and threshold. The instance whose insert stored an alert mails it (when the set
     * says so and the user has an address), after the answer; a set whose check fails is logged and skipped.
     */
    async checkAlerts(userId: string, accountKey: string): Promise<number> {
      const at = deps.now().toISOString();
      let stored = 0;
      for (const row of await repository.ofAccount(userId, accountKey)) {
        if (Date.parse(row.start_time) > Date.parse(at)) continue;
        try {
          stored += await checkSet(userId, row, at);
        } catch (error) {
          if (!deps.alerts) throw error;
          deps.alerts.log(error, { userId, ruleSetId: row.id, step: 'rule alerts' });
        }
      }
      return stored;
    },

    /** The user's alerts, newest first (at most 200), and how many are unread. */
    async alerts(userId: string, unreadOnly = false): Promise<{ alerts: RuleAlert[]; unread: number }> {
      const [rows, unread] = await Promise.all([repository.alerts(userId, unreadOnly), repository.unreadCount(userId)]);
      return { alerts: rows.map(toAlert), unread };
    },

    /** Marks the named alerts read (another user's ids are ignored), or every unread one without ids. */
    async readAlerts(userId: string, ids?: string[]): Promise<number> {
      return repository.markRead(userId, ids, deps.now().toISOString());
    },

    /** Waits for the alert mails still being sent (the app's close, tests). */
    async settle(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    /**
     * Every trade that broke a trade-level rule of the user's rule sets now, by trade key (`<account key> <trade
     * id>`), for the screens that show trades (docs/rules.md, Where breaks are shown). Computed once per version:
     * the data version of the trades and accounts (a sync, an import), the rule sets as stored (a set created, edited
     * or deleted), which of them have started, and the trading day (a weekly close passed). Nothing else changes the breaks, so the same version is the same answer, and the readers' caches key
     * on it.
     */
    async breakIndex(userId: string): Promise<BreakIndex> {
      const [rows, dataVersion] = await Promise.all([repository.list(userId), sources.dataVersion(userId)]);
      const now = deps.now().getTime();
      // What of the sets the breaks read (not `updated_at`: two edits may share a millisecond), and which started.
      const sets = createHash('sha256')
        .update(
          JSON.stringify(
            rows
              .map((r) => [r.id, r.name, r.start_time, r.initial_balance, r.rules, Date.parse(r.start_time) <= now])
              .sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
          ),
        )
        .digest('base64url');
      const version = `${dataVersion}/${TRADING_DAY.dayOf(now)}/${sets}`;
      const held = indexes.get(userId);
      if (held && held.version === version) return held.index;
      const hasTradeRules = rows.some((r) => toStored(r).rules.some((rule) => TRADE_LEVEL_KINDS.has(rule.kind)));
      const index = (async (): Promise<BreakIndex> => {
        const byTrade = new Map<string, TradeRuleBreak[]>();
        if (hasTradeRules)
          for (const b of await this.breaks(userId, {})) {
            const key = `${b.accountId} ${b.tradeKey}`;
            let list = byTrade.get(key);
            if (!list) byTrade.set(key, (list = []));
            list.push({ ruleSetId: b.ruleSetId, ruleSetName: b.ruleSetName, kind: b.kind, time: b.time, rule: b.rule });
          }
        return { version, hasTradeRules, byTrade };
      })();
      // A failed computation is not kept: the next request tries again.
      index.catch(() => {
        if (indexes.get(userId)?.index === index) indexes.delete(userId);
      });
      indexes.delete(userId);
      indexes.set(userId, { version, index });
      if (indexes.size > BREAK_INDEXES_KEPT) indexes.delete(indexes.keys().next().value!);
      return index;
    },
  };
}
export type RulesService = ReturnType<typeof createRulesService>;
