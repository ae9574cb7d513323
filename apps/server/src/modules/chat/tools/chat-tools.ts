import { z } from 'zod';
import {
  GRANULARITIES,
  TAG_KINDS,
  type Attachment,
  type ChatTopic,
  type Mode,
  type TagFacts,
} from '@pipsense/contract';
import { ToolInputError, type ToolSpec } from '../../../integrations/llm';
import { AppError } from '../../../lib/errors';
import { providerJsonSchema } from '../../../lib/json-schema';
import { isAccountNamed } from '../../trading';
import { accountState, currencyTotals, type AccountState, type CurrencyTotals } from './account-state';
import {
  lastCompleteDay,
  moneyFigure,
  noDailyRates,
  prepareConversion,
  type MoneyFigure,
} from '../../../domain/currency-totals';
import { isDecimal } from '../../../domain/decimal';
import { candleStats, type CandleStats } from './candle-stats';
import type { ChatData, DataOrigin } from './chat-data';
import { displayInstrument, granularityLabel } from './market-names';
import { historyNote, originNote } from './origin-note';
import { resolveTags, withJournal, type JournalSnapshot } from './journal';
import type { PerformanceResult } from './performance';
import {
  ruleBreaksArgs,
  ruleBreaksOf,
  ruleStatusArgs,
  ruleStatusOf,
  type ChatRules,
  type RuleBreaksArgs,
  type RuleBreaksToolResult,
  type RuleStatusArgs,
  type RuleStatusToolResult,
} from './rule-status';
import {
  patternsOf,
  tradeReviewArgs,
  tradeReviewOf,
  weeklyReviewArgs,
  weeklyReviewOf,
  type ChatCoach,
  type PatternsToolResult,
  type TradeReviewArgs,
  type TradeReviewToolResult,
  type WeeklyReviewArgs,
  type WeeklyReviewToolResult,
} from './coach';
import {
  MAX_PERIOD_DAYS,
  PERIOD_KINDS,
  PeriodError,
  resolvePeriod,
  type PeriodSpec,
  type ResolvedPeriod,
} from './periods';
import {
  DEFAULT_TOP,
  MAX_TOP,
  normaliseInstrument,
  OUTCOMES,
  PRESENCE,
  TRADE_SORTS,
  TRADE_STATES,
  tradesAttachment,
  type TradeQueryResult,
} from './trade-query';

/** Who is asking and about what; set by the server from the session and the request, never by the model. */
export interface ToolContext {
  userId: string;
  mode: Mode;
  /** The instrument and granularity selected on the candles screen: defaults for candle lookups. */
  instrument: string;
  granularity: string;
  timeZone: string;
  now: Date;
}

const MAX_CANDLES = 500;
const DEFAULT_CANDLES = 100;

const notConnected = () =>
  new AppError(
    400,
    'OANDA_NOT_CONFIGURED',
    'OANDA is not connected yet. Add your access token and account ID in Settings → Trading Platforms, then sync your trades and accounts.',
  );

const instrumentArg = z
  .string()
  .trim()
  .transform(normaliseInstrument)
  .pipe(z.string().regex(/^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$/, 'instrument must look like EUR_USD'));
const onlyInstrument = instrumentArg.optional().describe('Only this instrument, e.g. EUR_USD.');
const dayArg = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use a date like 2025-03-14');
const periodArgs = {
  period: z
    .enum(PERIOD_KINDS)
    .optional()
    .describe(
      'Calendar period in the trader\'s time zone. Weeks start on Monday. "last_n_days" uses "days"; "weekday" uses "weekday" (the latest such day, today included); "range" uses "from" and/or "to". Default: all.',
    ),
  days: z
    .number()
    .int()
    .min(1)
    .max(MAX_PERIOD_DAYS)
    .optional()
    .describe('With period "last_n_days": how many days, today included.'),
  weekday: z
    .number()
    .int()
    .min(1)
    .max(7)
    .optional()
    .describe('With period "weekday": the ISO weekday, Monday 1 … Sunday 7.'),
  from: dayArg.optional().describe('With period "range": first day, YYYY-MM-DD.'),
  to: dayArg.optional().describe('With period "range": last day (inclusive), YYYY-MM-DD.'),
};

export const tradesArgs = z.object({
  state: z.enum(TRADE_STATES).default('all').describe('open, closed or all (default all).'),
  instrument: onlyInstrument,
  ...periodArgs,
  outcome: z.enum(OUTCOMES).default('any').describe('winners (P/L > 0), losers (P/L < 0) or any (default).'),
  stop_loss: z.enum(PRESENCE).default('any').describe('Trades with or without a stop-loss order (default any).'),
  take_profit: z.enum(PRESENCE).default('any').describe('Trades with or without a take-profit order (default any).'),
  tag: z
    .array(z.string().trim().min(1).max(64))
    .max(10)
    .optional()
    .describe('Only trades carrying any of these journal tags, by name (e.g. ["FOMO"], ["Breakout", "Pullback"]).'),
  sort: z.enum(TRADE_SORTS).default('newest').describe('pl_desc, pl_asc, newest (default) or oldest.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_TOP)
    .default(DEFAULT_TOP)
    .describe(`How many trades to list (default ${DEFAULT_TOP}, at most ${MAX_TOP}).`),
});
export type TradesArgs = z.input<typeof tradesArgs>;

export const performanceArgs = z.object({ ...periodArgs, instrument: onlyInstrument });
export const compareTagsArgs = z.object({
  ...periodArgs,
  instrument: onlyInstrument,
  kind: z
    .enum(TAG_KINDS)
    .optional()
    .describe('Only tags of this kind: setup (setups and strategies), mistake or emotion. Default: all tags.'),
});
export type CompareTagsArgs = z.input<typeof compareTagsArgs>;
export type PerformanceArgs = z.input<typeof performanceArgs>;

export const accountArgs = z.object({
  account_id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Only this account: an OANDA account id (e.g. 101-004-1234567-001), or a MetaTrader login or account id as the accounts list shows it.',
    ),
});
export type AccountArgs = z.input<typeof accountArgs>;

export const candleArgs = z.object({
  instrument: instrumentArg.optional().describe('e.g. EUR_USD. Default: the instrument selected on screen.'),
  granularity: z.enum(GRANULARITIES).optional().describe('Candle size. Default: the granularity selected on screen.'),
  count: z.number().int().min(1).max(MAX_CANDLES).optional().describe(`How many candles (default ${DEFAULT_CANDLES}).`),
});
export type CandleArgs = z.input<typeof candleArgs>;
export const patternsArgs = z.object({ ...periodArgs });
export type PatternsArgs = z.input<typeof patternsArgs>;

/** A tool as the model sees it: its arguments' JSON Schema derived from the zod schema that validates them. */
const tool = (name: string, description: string, args: z.ZodType): ToolSpec => ({
  name,
  description,
  parameters: providerJsonSchema(args, 'input'),
});

const SPECS = {
  query_trades: tool(
    'query_trades',
    "Lists the trader's trades in the selected mode (demo or live) with filters, sorting and a top N, plus totals over every match. " +
      'P/L is realized plus unrealized P/L in the account currency (financing apart). Closed trades count in the period they closed in, open trades in the period they opened in. ' +
      'Use sort "pl_desc" with outcome "winners" for the best trades, "pl_asc" with outcome "losers" for the worst.',
    tradesArgs,
  ),
  get_performance: tool(
    'get_performance',
    'Results of the trades closed in a period in the selected mode, per account currency: trade count, wins, losses, win rate, net realized P/L, gross profit and loss, financing, profit factor, average, best and worst trade.',
    performanceArgs,
  ),
  compare_tags: tool(
    'compare_tags',
    "Compares the trader's journal tags (setups, mistakes, emotions) over the trades closed in a period in the selected mode: per tag the closed trade count, win rate, net realized P/L, expectancy (mean P/L per trade), average R (over trades with an initial stop) and how many had an initial stop. " +
      'Use it for "which setup loses me the most?", "what do my mistakes cost?", "compare my setups".',
    compareTagsArgs,
  ),
  get_account_state: tool(
    'get_account_state',
    "The trader's OANDA accounts in the selected mode: balance, NAV, unrealized P/L, margin used and available, margin utilisation (margin used as a percent of NAV), open trade and position counts, with totals per currency.",
    accountArgs,
  ),
  get_candles: tool(
    'get_candles',
    'Fetches mid-price candles from OANDA and summarises them: first open, last close, change, high, low, range, average candle range, volatility (standard deviation of close-to-close returns per candle) and the latest candles.',
    candleArgs,
  ),
  get_rule_status: tool(
    'get_rule_status',
    "The trader's rule sets (prop-firm challenges and own risk rules, docs: My Rules) with each one's status exactly as the rules module computes it now: " +
      'state (on_track, passed, breached, paused, unknown), the breach {rule, time}, one line per rule {kind, unit, limit, used, remaining, percentUsed, floor, ok} (money as exact decimals of the account currency), ' +
      "today {start, end (the next daily reset, UTC), anchor, floor, remaining: today's loss room above the daily floor}, tradingDays {done, required}, equityBasis. " +
      '`active` is true for a set started and neither breached nor passed. Use it for "how much can I still lose today?", "am I on track for my challenge?". Never compute a rule yourself.',
    ruleStatusArgs,
  ),
  get_rule_breaks: tool(
    'get_rule_breaks',
    "Which of the trader's trade-level rules (risk per trade, trades per day, losses in a row, weekend holding) their trades broke, most broken first: per rule kind the number of breaks, the breaking trades, and those trades' net P/L (P/L plus financing) per account currency, summed exactly. " +
      'Use it for "which rules do I break most, and what did it cost?".',
    ruleBreaksArgs,
  ),
  get_trade_review: tool(
    'get_trade_review',
    "One closed trade's coach review (docs: Coach) with the facts code computed from its candles and the trader's own history: the higher-timeframe trend and whether the trade went with it, where the entry sat in the recent range, the stop in ATR multiples, the share of the favourable move kept and the R left, the hold against the trader's median, the session, the size against the usual size, playbook rules followed or broken, personal rule breaks, minutes after a loss. " +
      'Each fact is {name, value, text}; the review (wentWell, toImprove, action, score) cites fact names; `patterns` lists the behaviour patterns that flag the trade. Find the trade with query_trades first. ' +
      'Use it for "why did my EUR_USD trade on Tuesday lose?". Quote the facts; never invent one.',
    tradeReviewArgs,
  ),
  get_patterns: tool(
    'get_patterns',
    "The trader's behaviour patterns in a period, as the coach detects them (revenge_trading, overtrading, size_escalation, off_session, holding_losers, stop_moved_away, early_exit): each with its definition, the flagged trades, their net P/L against the other trades' (money as exact decimals; converted to the home currency, or listed per currency), and average R of each side. Costliest first. " +
      'Use it for "what should I work on?", "do I revenge trade?", "what do my habits cost?".',
    patternsArgs,
  ),
  get_weekly_review: tool(
    'get_weekly_review',
    "The coach's weekly review of an ended ISO week (Monday to Monday in the trader's zone): P/L, R and win rate against the 12-week average, best and worst trades with their reviews, the patterns with their cost, rule breaks, playbook follow rate, mood against results, and one focus for next week with how last week's focus went. " +
      'Use it for "how was my week?", "what should I focus on next week?".',
    weeklyReviewArgs,
  ),
} satisfies Record<string, ToolSpec>;

type ToolName = keyof typeof SPECS;

const TOPIC_TOOLS: Record<ChatTopic, ToolName[]> = {
  trading: [
    'query_trades',
    'get_performance',
    'compare_tags',
    'get_rule_status',
    'get_rule_breaks',
    'get_trade_review',
    'get_patterns',
    'get_weekly_review',
  ],
  accounts: ['get_account_state', 'get_performance', 'get_rule_status', 'get_rule_breaks'],
  candles: ['get_candles'],
};

export const toolSpecs = (topic: ChatTopic): ToolSpec[] => TOPIC_TOOLS[topic].map((name) => SPECS[name]);

export interface PeriodView {
  kind: ResolvedPeriod['kind'];
  label: string;
  from: string | null;
  to: string | null;
  timeZone: string;
}

const periodView = (p: ResolvedPeriod): PeriodView => ({
  kind: p.kind,
  label: p.label,
  from: p.from?.toISOString() ?? null,
  to: p.to?.toISOString() ?? null,
  timeZone: p.timeZone,
});

export interface TradesToolResult extends TradeQueryResult {
  mode: Mode;
  filters: {
    state: string;
    instrument: string | null;
    outcome: string;
    stopLoss: string;
    takeProfit: string;
    /** Tag names asked for (as the trader's tags spell them); empty without a tag filter. */
    tags: string[];
    sort: string;
    limit: number;
  };
  period: PeriodView;
  /** Where the numbers come from, as the answer must say. */
  source: string;
  /** Set when there is nothing to show and why (e.g. nothing synced for this mode). */
  note?: string;
}

export interface PerformanceToolResult extends PerformanceResult {
  mode: Mode;
  instrument: string | null;
  period: PeriodView;
  source: string;
  note?: string;
}

export interface CompareTagsToolResult {
  mode: Mode;
  instrument: string | null;
  kind: string | null;
  period: PeriodView;
  /** Most closed trades first (engine/METRICS.md, "By tag"). Money in the account currency, 2 decimals. */
  tags: TagFacts[];
  source: string;
  note?: string;
}

export interface AccountToolResult {
  mode: Mode;
  accounts: AccountState[];
  /** Per account currency, never added. */
  totals: CurrencyTotals[];
  /** Over every currency under the currency rule (domain/currency-totals.ts): converted at the last complete day's rate, or listed. */
  total: { balance: MoneyFigure; NAV: MoneyFigure; unrealizedPL: MoneyFigure };
  source: string;
  note?: string;
}

export interface CandlesToolResult extends Omit<CandleStats, 'granularity'> {
  granularity: string;
  granularityName: string;
  source: string;
}

export interface ToolOutcome<T = unknown> {
  result: T;
  attachments: Attachment[];
}

function periodSpec(args: {
  period?: PeriodSpec['kind'] | undefined;
  days?: number | undefined;
  weekday?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}): PeriodSpec {
  const kind =
    args.period ?? (args.from || args.to ? 'range' : args.days ? 'last_n_days' : args.weekday ? 'weekday' : 'all');
  return { kind, days: args.days, weekday: args.weekday, from: args.from, to: args.to };
}

/** Nothing stored, no OANDA connection and no sync ever: the trader must connect OANDA before anything can be read. */
function refuseWithoutConnectionOrHistory(answer: {
  empty: boolean;
  openOrigin: DataOrigin;
  historySyncedAt: string | null;
}): void {
  const { empty, openOrigin, historySyncedAt } = answer;
  if (empty && openOrigin.kind === 'sync' && openOrigin.reason === 'not_connected' && !historySyncedAt)
    throw notConnected();
}

/** Drops nulls: models often send `null` for "not given". */
function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
}

function tradesTitle(r: TradesToolResult): string {
  const parts: string[] = [];
  if (r.filters.sort === 'pl_desc' || r.filters.sort === 'pl_asc') parts.push(`Top ${r.shown}`);
  parts.push(
    r.filters.outcome === 'winners'
      ? 'winners'
      : r.filters.outcome === 'losers'
        ? 'losers'
        : r.filters.state === 'all'
          ? 'trades'
          : `${r.filters.state} trades`,
  );
  if (r.filters.instrument) parts.push(`on ${displayInstrument(r.filters.instrument)}`);
  if (r.filters.stopLoss !== 'any') parts.push(`${r.filters.stopLoss} stop-loss`);
  if (r.filters.takeProfit !== 'any') parts.push(`${r.filters.takeProfit} take-profit`);
  if (r.filters.tags.length > 0) parts.push(`tagged ${r.filters.tags.join(' or ')}`);
  if (r.period.label !== 'all time') parts.push(`(${r.period.label})`);
  parts.push(`— ${r.mode}`);
  const text = parts.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The assistant's tools. Results come from our own code for the user and mode of the request; the
 * model only chooses filters. The built-in analyst calls the same typed functions.
 */
export function createChatTools(data: ChatData, rules?: ChatRules, coach?: ChatCoach) {
  /** Without the rules module (some tests), there are no rule sets to read. */
  const ruleSource: ChatRules = rules ?? {
    ruleSets: () => Promise.resolve([]),
    status: () => Promise.reject(new Error('No rules module')),
    breaks: () => Promise.resolve([]),
  };

  /** The accounts' money over every currency, at the last complete day's rates (domain/currency-totals.ts). */
  async function accountsTotal(ctx: ToolContext, list: readonly AccountState[]): Promise<AccountToolResult['total']> {
    const { home, rates } = (await data.currencyRule?.(ctx.userId)) ?? { home: 'USD', rates: noDailyRates };
    const day = lastCompleteDay(ctx.now);
    const amounts = (pick: (a: AccountState) => string | null) =>
      list.flatMap((a) => {
        const amount = pick(a);
        return isDecimal(amount) ? [{ currency: a.currency ?? '', amount, day }] : [];
      });
    const conversion = await prepareConversion(
      home,
      amounts((a) => a.balance),
      rates,
    );
    return {
      balance: moneyFigure(
        conversion,
        amounts((a) => a.balance),
      ),
      NAV: moneyFigure(
        conversion,
        amounts((a) => a.NAV),
      ),
      unrealizedPL: moneyFigure(
        conversion,
        amounts((a) => a.unrealizedPL),
      ),
    };
  }

  async function trades(ctx: ToolContext, input: TradesArgs): Promise<ToolOutcome<TradesToolResult>> {
    const args = tradesArgs.parse(input);
    const period = resolvePeriod(periodSpec(args), ctx.now, ctx.timeZone);
    const journal = await data.journal(ctx.userId);
    const asked = args.tag ?? [];
    const { tags } = knownTags(journal, asked);
    const answer = await data.queryTrades(
      ctx.userId,
      ctx.mode,
      {
        state: args.state,
        instrument: args.instrument,
        period,
        outcome: args.outcome,
        stopLoss: args.stop_loss,
        takeProfit: args.take_profit,
        sort: args.sort,
        limit: args.limit,
        ...(tags.length > 0 ? { tagIds: tags.map((tag) => tag.id) } : {}),
      },
      // Tags live in the journal, beside the stored trades: a tag filter reads them (open ones as of the last sync).
      { liveOpen: args.state !== 'closed' && tags.length === 0 },
    );
    refuseWithoutConnectionOrHistory(answer);
    const noData = answer.empty;
    const query = answer.result;
    const openSource = `open trades ${originNote(answer.openOrigin, ctx.timeZone)}`;
    const closedSource = `closed trades ${historyNote(answer.historySyncedAt, ctx.timeZone, answer.openOrigin)}`;
    const source =
      args.state === 'open' ? openSource : args.state === 'closed' ? closedSource : `${openSource}; ${closedSource}`;
    const result: TradesToolResult = {
      mode: ctx.mode,
      filters: {
        state: args.state,
        instrument: args.instrument ?? null,
        outcome: args.outcome,
        stopLoss: args.stop_loss,
        takeProfit: args.take_profit,
        tags: tags.map((tag) => tag.name),
        sort: args.sort,
        limit: args.limit,
      },
      period: periodView(period),
      source,
      ...query,
      trades: withJournal(query.trades, journal),
      ...(noData ? { note: noDataNote(ctx.mode, answer.openOrigin) } : {}),
    };
    return {
      result,
      attachments: result.trades.length > 0 ? [tradesAttachment(tradesTitle(result), result.trades)] : [],
    };
  }

  async function performanceOf(ctx: ToolContext, input: PerformanceArgs): Promise<ToolOutcome<PerformanceToolResult>> {
    const args = performanceArgs.parse(input);
    const period = resolvePeriod(periodSpec(args), ctx.now, ctx.timeZone);
    const answer = await data.performance(ctx.userId, ctx.mode, { period, instrument: args.instrument });
    refuseWithoutConnectionOrHistory(answer);
    const noData = answer.empty;
    const result: PerformanceToolResult = {
      mode: ctx.mode,
      instrument: args.instrument ?? null,
      period: periodView(period),
      source: `closed trades ${historyNote(answer.historySyncedAt, ctx.timeZone, answer.openOrigin)}`,
      ...answer.result,
      ...(noData ? { note: noDataNote(ctx.mode, answer.openOrigin) } : {}),
    };
    return { result, attachments: [] };
  }

  async function compareTags(ctx: ToolContext, input: CompareTagsArgs): Promise<ToolOutcome<CompareTagsToolResult>> {
    const args = compareTagsArgs.parse(input);
    const period = resolvePeriod(periodSpec(args), ctx.now, ctx.timeZone);
    const journal = await data.journal(ctx.userId);
    const answer = await data.compareTags(
      ctx.userId,
      ctx.mode,
      { period, instrument: args.instrument, kind: args.kind },
      journal,
    );
    refuseWithoutConnectionOrHistory(answer);
    const note = answer.empty
      ? noDataNote(ctx.mode, answer.openOrigin)
      : answer.result.length === 0
        ? `You have no ${args.kind ? `${args.kind} ` : ''}tags yet. Tag your trades in the trade details (Trades page) to compare setups and mistakes.`
        : undefined;
    return {
      result: {
        mode: ctx.mode,
        instrument: args.instrument ?? null,
        kind: args.kind ?? null,
        period: periodView(period),
        tags: answer.result,
        source: `closed trades ${historyNote(answer.historySyncedAt, ctx.timeZone, answer.openOrigin)}`,
        ...(note ? { note } : {}),
      },
      attachments: [],
    };
  }

  async function accounts(ctx: ToolContext, input: AccountArgs): Promise<ToolOutcome<AccountToolResult>> {
    const args = accountArgs.parse(input);
    const snapshot = await data.accounts(ctx.userId, ctx.mode);
    if (snapshot.accounts.length === 0 && snapshot.origin.kind === 'sync' && snapshot.origin.reason === 'not_connected')
      throw notConnected();
    const list = snapshot.accounts
      .filter((a) => !args.account_id || isAccountNamed(a, args.account_id))
      .map(accountState);
    const note =
      snapshot.accounts.length === 0
        ? noAccountsNote(ctx.mode, snapshot.origin)
        : list.length === 0
          ? `No ${ctx.mode} account has the id ${args.account_id}.`
          : undefined;
    return {
      result: {
        mode: ctx.mode,
        accounts: list,
        totals: currencyTotals(list),
        total: await accountsTotal(ctx, list),
        source: originNote(snapshot.origin, ctx.timeZone),
        ...(note ? { note } : {}),
      },
      attachments: [],
    };
  }

  async function candles(ctx: ToolContext, input: CandleArgs): Promise<ToolOutcome<CandlesToolResult>> {
    const args = candleArgs.parse(input);
    const instrument = args.instrument ?? ctx.instrument;
    const granularity = args.granularity ?? ctx.granularity;
    const fetched = await data.candles(ctx.userId, { instrument, granularity, count: args.count ?? DEFAULT_CANDLES });
    const { recent, ...summary } = candleStats({ ...fetched, instrument, granularity });
    return {
      result: {
        ...summary,
        granularityName: granularityLabel(granularity),
        source: 'fetched from OANDA just now',
        recent,
      },
      attachments: [{ type: 'candles', instrument, granularity, candles: fetched.candles }],
    };
  }

  /** get_rule_status: each rule set's status as GET rules/get_status/:id answers it (docs/rules.md, The assistant). */
  async function ruleStatus(ctx: ToolContext, input: RuleStatusArgs): Promise<ToolOutcome<RuleStatusToolResult>> {
    return { result: await ruleStatusOf(ruleSource, ctx.userId, ctx.now, input), attachments: [] };
  }

  /** get_rule_breaks: GET rules/get_breaks counted per rule kind, with the breaking trades' P/L from the read side. */
  async function ruleBreaks(ctx: ToolContext, input: RuleBreaksArgs): Promise<ToolOutcome<RuleBreaksToolResult>> {
    ruleBreaksArgs.parse(input);
    const tradesOf = (userId: string, accountKey: string) =>
      data.accountTrades ? data.accountTrades(userId, accountKey) : Promise.resolve([]);
    return { result: await ruleBreaksOf(ruleSource, tradesOf, ctx.userId, ctx.now), attachments: [] };
  }

  /** Without the coach (some tests), its tools say so, as a tool error the model reads. */
  const coachSource = (): ChatCoach => {
    if (!coach) throw new ToolInputError('The coach is not available on this server.');
    return coach;
  };

  /** get_trade_review: GET coach/get_trade_review/:accountId/:tradeId. */
  async function tradeReview(ctx: ToolContext, input: TradeReviewArgs): Promise<ToolOutcome<TradeReviewToolResult>> {
    return { result: await tradeReviewOf(coachSource(), ctx.userId, input), attachments: [] };
  }

  /** get_patterns: GET coach/get_patterns over the period, costliest first. */
  async function patterns(ctx: ToolContext, input: PatternsArgs): Promise<ToolOutcome<PatternsToolResult>> {
    const period = resolvePeriod(periodSpec(patternsArgs.parse(input)), ctx.now, ctx.timeZone);
    return { result: await patternsOf(coachSource(), ctx.userId, period), attachments: [] };
  }

  /** get_weekly_review: GET coach/get_weekly_review/:week, the last ended week by default. */
  async function weeklyReview(ctx: ToolContext, input: WeeklyReviewArgs): Promise<ToolOutcome<WeeklyReviewToolResult>> {
    return { result: await weeklyReviewOf(coachSource(), ctx.userId, ctx.now, input), attachments: [] };
  }

  const runners = {
    query_trades: trades,
    get_performance: performanceOf,
    compare_tags: compareTags,
    get_account_state: accounts,
    get_candles: candles,
    get_rule_status: ruleStatus,
    get_rule_breaks: ruleBreaks,
    get_trade_review: tradeReview,
    get_patterns: patterns,
    get_weekly_review: weeklyReview,
  } satisfies Record<ToolName, (ctx: ToolContext, args: never) => Promise<ToolOutcome>>;

  return {
    specs: toolSpecs,
    trades,
    performance: performanceOf,
    compareTags,
    accounts,
    candles,
    ruleStatus,
    ruleBreaks,
    tradeReview,
    patterns,
    weeklyReview,

    /** Runs a tool the model called; unknown names and bad arguments throw for the model to correct. */
    async run(topic: ChatTopic, name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
      const allowed = TOPIC_TOOLS[topic] as string[];
      if (!allowed.includes(name))
        throw new ToolInputError(`Unknown tool "${name}". Available tools: ${allowed.join(', ')}.`);
      const runner = runners[name as ToolName] as (ctx: ToolContext, args: unknown) => Promise<ToolOutcome>;
      try {
        return await runner(ctx, withoutNulls(args));
      } catch (error) {
        if (error instanceof PeriodError) throw new ToolInputError(`Invalid period: ${error.message}.`);
        throw error;
      }
    },
  };
}
export type ChatTools = ReturnType<typeof createChatTools>;

/** The trader's tags with these names; a name that is none of them is an input error naming the tags there are. */
function knownTags(journal: JournalSnapshot, names: readonly string[]) {
  const resolved = resolveTags(journal, names);
  if (resolved.unknown.length > 0) {
    const list = journal.tags.map((tag) => tag.name);
    throw new ToolInputError(
      `No tag named ${resolved.unknown.map((n) => `"${n}"`).join(', ')}. ` +
        (list.length > 0 ? `The trader's tags: ${list.join(', ')}.` : 'The trader has no tags yet.'),
    );
  }
  return resolved;
}

function noDataNote(mode: Mode, origin: { kind: string; reason?: string }): string {
  if (origin.kind === 'import')
    return `No ${mode} MetaTrader trades are stored yet. Import a MetaTrader report on the Trades page first.`;
  if (origin.kind === 'sync' && origin.reason === 'other_mode')
    return `No ${mode} trades are stored, and your OANDA connection is set up for the other mode. Switch the mode, or connect a ${mode} account in Settings → Trading Platforms.`;
  return `No ${mode} trades are stored yet. Sync your trades on the Trades page first.`;
}

function noAccountsNote(mode: Mode, origin: { kind: string; reason?: string }): string {
  if (origin.kind === 'import')
    return `No ${mode} MetaTrader account is stored yet. Import a MetaTrader report on the Trades page first.`;
  if (origin.kind === 'sync' && origin.reason === 'other_mode')
    return `No ${mode} account is stored, and your OANDA connection is set up for the other mode. Switch the mode, or connect a ${mode} account in Settings → Trading Platforms.`;
  return `No ${mode} account is stored yet. Sync your accounts on the Accounts page first.`;
}
