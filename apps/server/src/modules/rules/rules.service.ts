import { randomUUID } from 'node:crypto';
import {
  DEFAULT_ALERT_THRESHOLDS,
  rulePresetSchema,
  ruleSetSchema,
  type Rule,
  type RulePresetId,
  type RuleSet,
  type RuleStatus,
  type RuleTradeBreak,
  type StoredRuleSet,
} from '@pipsense/contract';
import { divideDecimals, multiplyDecimals, negateDecimal, signOf, sumDecimals } from '../../domain/decimal';
import { initialRiskOf } from '../../domain/risk';
import { badRequest, notFound } from '../../lib/errors';
import { RULE_PRESETS, evaluateRules, presetOf, type RuleEvaluation, type RuleInputs, type RuleTrade } from './engine';
import type { RuleSources, RuleTradeFacts } from './ports';
import type { RuleSetRow, RulesRepository } from './rules.repository';
import type { RuleDayStore } from './day-store';
import { createStoredDays } from './stored-days';

export interface RulesDeps {
  repository: RulesRepository;
  sources: RuleSources;
  now: () => Date;
  /** The stored day records (docs/rules.md, Status); without it (or `sources.version`) every answer is a whole pass. */
  days?: RuleDayStore | undefined;
}

interface RuleSetFields {
  name?: string | undefined;
  startTime?: string | undefined;
  initialBalance?: string | undefined;
  rules?: Rule[] | undefined;
}

const toStored = (row: RuleSetRow): StoredRuleSet => ({
  id: row.id,
  accountId: row.account_key,
  name: row.name,
  preset: row.preset as RulePresetId | null,
  startTime: row.start_time,
  initialBalance: row.initial_balance,
  rules: JSON.parse(row.rules) as Rule[],
  // Stored once the alerts land (migration 028); until then every set has the defaults.
  alertThresholds: [...DEFAULT_ALERT_THRESHOLDS],
  emailAlerts: false,
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
 * the instrument's base (at the stop's price, where the loss would be booked); null without a stop, or when the
 * account's currency is neither side of the pair (no rate is read here).
 */
export function riskAtOpenOf(t: RuleTradeFacts, currency: string | null): string | null {
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
  return null;
}

/** Rule sets of the user's accounts (docs/rules.md, API): stored here, evaluated by the engine on the owners' data. */
export function createRulesService(deps: RulesDeps) {
  const { repository, sources } = deps;

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
    return {
      currency: currency ?? '',
      trades: trades.map((t): RuleTrade => ({
        key: t.tradeId,
        instrument: t.instrument,
        openTime: t.openTime,
        closeTime: t.closeTime,
        // What the close books: P/L plus financing, as the money module books it (docs/money.md).
        realizedPL: sumDecimals([t.realizedPL, t.financing]),
        riskAtOpen: riskAtOpenOf(t, currency),
      })),
      cashFlows: cashFlows.map((f) => ({ time: f.time, type: f.type, amount: f.amount })),
      equity: {
        points: history.points.map((p) => ({ time: p.time, equity: p.equity })),
        equityComplete: history.equityComplete,
        // No reading from samples or candles at all: an import without an equity source (closed-only basis).
        equityUnknown: history.points.every((p) => p.equitySource === null),
      },
    };
  }

  const storedDays = deps.days && sources.version ? createStoredDays(deps.days) : undefined;

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
    if (!storedDays || !sources.version || atText !== undefined)
      return evaluateRules(set, await inputsOf(userId, row.account_key, at), at);
    // The version first: a write after it is seen by the next answer.
    const version = await sources.version(userId);
    return storedDays.evaluate({ setId: row.id, userId, stamp: row.updated_at }, set, version, at, () =>
      inputsOf(userId, row.account_key, at),
    );
  }

  /** The status now: the stored one when current (no input read), else as `evaluate`. */
  async function statusOf(userId: string, row: RuleSetRow, atText?: string): Promise<RuleStatus> {
    if (storedDays && sources.version && atText === undefined) {
      const at = checkedAt(row);
      const known = await storedDays.status(row.id, row.updated_at, await sources.version(userId), at);
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
  };
}
export type RulesService = ReturnType<typeof createRulesService>;
