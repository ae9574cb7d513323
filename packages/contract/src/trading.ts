import { z } from 'zod';
import { decimalString, envelope, isoTime, MODES, pageQuery, timeZone } from './common';
import { tradeRuleBreak } from './rules';
import { tradeTag } from './tags';
import { PLATFORM_QUERIES, platformParam } from './platforms';
import { COACH_PATTERNS } from './coach';
import { BROKER_TIMES } from './import';

/** The initial risk of a trade: its first stop-loss, and the distance from the entry price to it. */
const initialRisk = z.object({
  stopLossPrice: decimalString,
  /** |entry − stop| in price. */
  distance: decimalString,
  /** The same in pips of the instrument (1 decimal). */
  pips: z.number(),
});

/** A price excursion: the price reached, its distance from entry in pips (≥ 0), and in R when the trade has one. */
const excursion = z.object({ price: decimalString, pips: z.number(), r: z.number().nullable() });
export type Excursion = z.infer<typeof excursion>;
const EXCURSION_STATES = ['pending', 'ready', 'unavailable'] as const;

/**
 * A trade as stored from OANDA. Broker numbers stay decimal strings, exactly as OANDA sent them.
 * `null` means OANDA did not send the field: closed trades carry no unrealizedPL, open trades no closeTime,
 * averageClosePrice appears once a trade is closed or reduced, the order prices only when such an order exists.
 * Times are RFC 3339 UTC with nine fractional digits (OANDA's precision).
 */
export const tradeItem = z.object({
  tradeId: z.string(),
  /** The OANDA account id (e.g. 101-004-1234567-001). */
  accountId: z.string(),
  mode: z.enum(MODES),
  instrument: z.string(),
  price: decimalString.nullable(),
  initialUnits: decimalString,
  currentUnits: decimalString,
  realizedPL: decimalString,
  unrealizedPL: decimalString.nullable(),
  financing: decimalString,
  /** OPEN, CLOSED or CLOSE_WHEN_TRADEABLE. */
  state: z.string(),
  openTime: z.string(),
  closeTime: z.string().nullable(),
  averageClosePrice: decimalString.nullable(),
  stopLossPrice: decimalString.nullable(),
  takeProfitPrice: decimalString.nullable(),
  trailingStopDistance: decimalString.nullable(),
  updatedAt: z.string(),
  createdAt: z.string(),
  /**
   * Where the trade comes from (PLATFORM_TABLE's query value). MetaTrader rows also carry the symbol as
   * the report printed it, the lots, and the commission (with MT4 taxes / the MT5 fee) and swap apart from
   * `realizedPL` (the report's profit column); their `financing` is commission + swap, so that P/L + financing is
   * the trade's net as for OANDA. OANDA rows: symbol, lots, commission and swap are null.
   */
  platform: z.enum(PLATFORM_QUERIES),
  symbol: z.string().nullable(),
  lots: decimalString.nullable(),
  commission: decimalString.nullable(),
  swap: decimalString.nullable(),
});
export type TradeItem = z.infer<typeof tradeItem>;

/** A row of the trade list (`get_trade_history`, a journal day): the trade with its journal and its risk in R. */
export const tradeListItem = tradeItem.extend({
  /** The trader's journal on the trade: markdown note ('' when none), 1–5 rating, tags. */
  note: z.string(),
  rating: z.number().int().nullable(),
  tags: z.array(tradeTag),
  /** From the first stop-loss attached to the trade; null: "no initial stop" (engine/METRICS.md). */
  initialRisk: initialRisk.nullable(),
  /**
   * Result in R (price move over the initial stop distance, 2 decimals); null without an initial stop or while open.
   */
  rMultiple: z.number().nullable(),
  /** Worst (mae) and best (mfe) excursion over the trade's life, from candles; null until known (see `excursion`). */
  mae: excursion.nullable(),
  mfe: excursion.nullable(),
  /** `pending`: candles not read yet; `unavailable`: no candle source or no candles; null for open trades. */
  excursion: z.enum(EXCURSION_STATES).nullable(),
  /**
   * The trade-level rules of the user's rule sets the trade broke (docs/rules.md, Where breaks are shown), oldest
   * first; empty when it broke none.
   */
  ruleBreaks: z.array(tradeRuleBreak).default([]),
  /** The playbook the trade is assigned to (docs/review.md), null when none. */
  playbookId: z.string().nullable().default(null),
  /** Whether the trade's review against its playbook is done. */
  reviewed: z.boolean().default(false),
  /** null while not reviewed; else whether every rule of the review was followed. */
  followedAll: z.boolean().nullable().default(null),
  /** Images attached to the trade. */
  attachmentCount: z.number().int().default(0),
});
export type TradeListItem = z.infer<typeof tradeListItem>;

/** An OANDA account with its last synced summary; id, userId and version are internal. */
export const accountItem = z.object({
  id: z.string(),
  userId: z.string(),
  version: z.number().int(),
  oandaAccountId: z.string(),
  mode: z.enum(MODES),
  alias: z.string().nullable(),
  currency: z.string().nullable(),
  balance: decimalString.nullable(),
  NAV: decimalString.nullable(),
  unrealizedPL: decimalString.nullable(),
  pl: decimalString.nullable(),
  financing: decimalString.nullable(),
  commission: decimalString.nullable(),
  marginUsed: decimalString.nullable(),
  marginAvailable: decimalString.nullable(),
  positionValue: decimalString.nullable(),
  marginRate: decimalString.nullable(),
  marginCloseoutPercent: decimalString.nullable(),
  withdrawalLimit: decimalString.nullable(),
  openTradeCount: z.number().int().nullable(),
  openPositionCount: z.number().int().nullable(),
  pendingOrderCount: z.number().int().nullable(),
  hedgingEnabled: z.boolean().nullable(),
  /** When OANDA opened the account. */
  openedAt: z.string().nullable(),
  lastTransactionID: z.string().nullable(),
  syncedAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * The platform, the broker's login and server (OANDA: the account id and fxpractice/fxtrade), and for
   * imported MetaTrader accounts the broker's name, the leverage ('1:100') and the server's UTC offset the times
   * were converted with; null where not known. For MetaTrader `oandaAccountId` holds the account key (the trades'
   * accountId), `NAV` the report's equity, `pl` its closed-trade P/L, `unrealizedPL` its floating P/L.
   */
  platform: z.enum(PLATFORM_QUERIES),
  login: z.string(),
  server: z.string(),
  broker: z.string().nullable(),
  leverage: z.string().nullable(),
  /** The server clock rule the account's report times are read with (import's BROKER_TIMES); null for OANDA. */
  brokerTime: z.enum(BROKER_TIMES).nullable().default(null),
  /** The offset of a `fixed` rule; null for a named rule and for OANDA. */
  serverUtcOffset: z.string().nullable(),
});
export type AccountItem = z.infer<typeof accountItem>;

/** A query parameter that may repeat (`tag=a&tag=b`): always a list. */
const repeatable = <T extends z.ZodType<string>>(item: T) =>
  z.union([item, z.array(item)]).transform((v) => (Array.isArray(v) ? v : [v]));

export const TRADE_SORTS = ['openTime', 'closeTime', 'realizedPL', 'instrument'] as const;
export type TradeSortField = (typeof TRADE_SORTS)[number];
export const TRADE_OUTCOMES = ['win', 'loss', 'breakeven'] as const;
export type TradeOutcome = (typeof TRADE_OUTCOMES)[number];

/**
 * The trade filters shared by the list, the CSV export and the overview. `from`/`to` bound the open time
 * (inclusive, ISO-8601); `outcome` looks at closed trades' realized P/L; `tag` repeats (a trade with any of them);
 * `q` searches the notes.
 */
export const tradeFilterFields = z.object({
  platform: platformParam,
  mode: z.enum(MODES, { error: 'mode must be demo or live' }).optional(),
  accountId: z.string().trim().min(1).max(200).optional(),
  from: isoTime('from').optional(),
  to: isoTime('to').optional(),
  instrument: z.string().trim().min(1).max(32, 'instrument is too long').optional(),
  side: z.enum(['long', 'short'], { error: 'side must be long or short' }).optional(),
  outcome: z.enum(TRADE_OUTCOMES, { error: 'outcome must be win, loss or breakeven' }).optional(),
  state: z.enum(['OPEN', 'CLOSED'], { error: 'state must be OPEN or CLOSED' }).optional(),
  tag: repeatable(z.string().trim().min(1).max(64)).optional(),
  q: z.string().trim().max(200, 'q must be at most 200 characters').optional(),
  hasNote: z.stringbool({ error: 'hasNote must be true or false' }).optional(),
  /** true: only the trades that broke a trade-level rule of the user's rule sets; false: only those that did not. */
  ruleBreak: z.stringbool({ error: 'ruleBreak must be true or false' }).optional(),
  /** Only the trades assigned to this playbook (docs/review.md); apart from the rule tracker's `ruleBreak`. */
  playbookId: z.string().trim().min(1).max(64).optional(),
  /** followed: reviewed with every rule followed; broke: reviewed with one unticked; unreviewed: assigned, not reviewed. */
  playbookReview: z
    .enum(['followed', 'broke', 'unreviewed'], { error: 'playbookReview must be followed, broke or unreviewed' })
    .optional(),
  /** Only the trades a behaviour pattern flags (docs/coach.md, Patterns), with the user's thresholds. */
  pattern: z.enum(COACH_PATTERNS, { error: `pattern must be one of ${COACH_PATTERNS.join(', ')}` }).optional(),
  sort: z.enum(TRADE_SORTS, { error: 'sort must be openTime, closeTime, realizedPL or instrument' }).optional(),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
});
/** An inverted range is refused: it can only be a mistake. */
export const withDateRange = <T extends z.ZodType<{ from?: string; to?: string }>>(schema: T) =>
  schema.refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'from must not be after to', path: ['from'] });
const tradeFilterQuery = withDateRange(tradeFilterFields);
export type TradeFilterQuery = z.input<typeof tradeFilterQuery>;
export type TradeFilters = z.output<typeof tradeFilterQuery>;

/** Lists: `page`/`limit` as everywhere, plus the trade filters. */
export const tradeListQuery = z.intersection(pageQuery, tradeFilterQuery);
/**
 * GET /api/v1/trade/export_trades: the same filters, every matching trade, as CSV; `timeZone` (IANA, default UTC)
 * is the zone of the local-time columns beside the UTC ones.
 */
export const exportTradesQuery = withDateRange(tradeFilterFields.extend({ timeZone: timeZone.default('UTC') }));
export const accountListQuery = pageQuery.extend({
  platform: platformParam,
  mode: z.enum(MODES, { error: 'mode must be demo or live' }).optional(),
});

export const tradeListResponse = envelope.extend({
  data: z.array(tradeListItem),
  pages: z.number().int().min(1),
  total: z.number().int().min(0),
});
export type TradeListResponse = z.infer<typeof tradeListResponse>;

export const accountListResponse = envelope.extend({
  data: z.array(accountItem),
  pages: z.number().int().min(1),
  total: z.number().int().min(0),
});
export type AccountListResponse = z.infer<typeof accountListResponse>;

/**
 * What a balance operation is (docs/decisions/012-metatrader-import.md, Balance operations): MetaTrader's `balance`
 * rows are a deposit when positive and a withdrawal when negative; `credit`, `bonus` and `correction` keep their
 * names; any other printed type is `other` (its own word stays in `printedType`).
 */
const BALANCE_OPERATION_TYPES = ['deposit', 'withdrawal', 'credit', 'bonus', 'correction', 'other'] as const;
export type BalanceOperationType = (typeof BALANCE_OPERATION_TYPES)[number];

/**
 * A deposit, withdrawal, credit, bonus or correction of an imported account. `id`: the report's ticket or deal
 * when it prints one, else a key of the printed type, server time, amount and occurrence. `time` is UTC (RFC 3339,
 * nine fractional digits, converted with the account's server offset as its trades), `serverTime` the broker's
 * time as printed. `amount` is signed (a withdrawal is negative), in `currency`, the account's (null when the report
 * names none).
 */
const balanceOperation = z.object({
  id: z.string(),
  time: z.string(),
  serverTime: z.string(),
  type: z.enum(BALANCE_OPERATION_TYPES),
  printedType: z.string(),
  amount: decimalString,
  currency: z.string().nullable(),
  comment: z.string().nullable(),
});
export type BalanceOperation = z.infer<typeof balanceOperation>;

/** GET /api/v1/account/get_balance_operations/:accountId: the account key, or its login (as the trade filter). */
export const balanceOperationsParams = z.object({
  accountId: z.string().trim().min(1, 'accountId is required').max(200, 'accountId is too long'),
});
export const balanceOperationsQuery = pageQuery;
/** Newest first, a page at a time. */
export const balanceOperationsResponse = envelope.extend({
  data: z.array(balanceOperation),
  pages: z.number().int().min(1),
  total: z.number().int().min(0),
});
export type BalanceOperationsResponse = z.infer<typeof balanceOperationsResponse>;

/** `full=true` re-reads the whole history instead of only what changed; always safe. */
export const syncTradeQuery = z.object({ full: z.stringbool({ error: 'full must be true or false' }).optional() });

const tradeSyncResult = z.object({
  accounts: z.number().int(),
  /** Trades stored for the synced accounts after the sync. */
  trades: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  /** Whether at least one account was read in full (first sync, interrupted sync, or full=true). */
  full: z.boolean(),
});
export type TradeSyncResult = z.infer<typeof tradeSyncResult>;
export const tradeSyncResponse = envelope.extend({ data: tradeSyncResult });

const accountSyncResult = z.object({
  accounts: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
});
export type AccountSyncResult = z.infer<typeof accountSyncResult>;
export const accountSyncResponse = envelope.extend({ data: accountSyncResult });

/** Every candle granularity OANDA v20 accepts. */
export const GRANULARITIES = [
  'S5',
  'S10',
  'S15',
  'S30',
  'M1',
  'M2',
  'M4',
  'M5',
  'M10',
  'M15',
  'M30',
  'H1',
  'H2',
  'H3',
  'H4',
  'H6',
  'H8',
  'H12',
  'D',
  'W',
  'M',
] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Length of one candle in seconds (D and W as 24 hours and 7 days; M, a calendar month, has no fixed length). */
export const GRANULARITY_SECONDS: Readonly<Record<Exclude<Granularity, 'M'>, number>> = {
  S5: 5,
  S10: 10,
  S15: 15,
  S30: 30,
  M1: 60,
  M2: 120,
  M4: 240,
  M5: 300,
  M10: 600,
  M15: 900,
  M30: 1_800,
  H1: 3_600,
  H2: 7_200,
  H3: 10_800,
  H4: 14_400,
  H6: 21_600,
  H8: 28_800,
  H12: 43_200,
  D: 86_400,
  W: 604_800,
};

const instrumentName = z
  .string({ error: 'instrument is required (e.g. EUR_USD)' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$/, 'instrument must look like EUR_USD');

const rfc3339 = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 time such as 2025-10-03T14:30:00Z' });

export const candlesQuery = z
  .object({
    instrument: instrumentName,
    granularity: z
      .enum(GRANULARITIES, { error: `granularity must be one of ${GRANULARITIES.join(', ')}` })
      .default('M5'),
    count: z.coerce
      .number({ error: 'count must be a whole number from 1 to 5000' })
      .int('count must be a whole number from 1 to 5000')
      .min(1, 'count must be a whole number from 1 to 5000')
      .max(5000, 'count must be a whole number from 1 to 5000')
      .optional(),
    from: rfc3339.optional(),
    to: rfc3339.optional(),
    /** Any of M (mid), B (bid), A (ask), each at most once. */
    price: z
      .string()
      .regex(/^(?!.*(.).*\1)[MBA]{1,3}$/, 'price must combine M, B and A, e.g. M or BA')
      .default('M'),
  })
  .refine((q) => !(q.from && q.to && q.count !== undefined), {
    message: 'count: leave it out when both from and to are given',
    path: ['count'],
  })
  .refine((q) => !(q.from && q.to && Date.parse(q.from) >= Date.parse(q.to)), {
    message: 'from must be earlier than to',
    path: ['from'],
  });

const candleData = z.object({ o: decimalString, h: decimalString, l: decimalString, c: decimalString });
export const candle = z.object({
  /** Start of the candle, RFC 3339 UTC. */
  time: z.string(),
  volume: z.number().int(),
  complete: z.boolean(),
  mid: candleData.optional(),
  bid: candleData.optional(),
  ask: candleData.optional(),
});
export type Candle = z.infer<typeof candle>;
const candlesResult = z.object({
  instrument: z.string(),
  granularity: z.string(),
  candles: z.array(candle),
});
export type CandlesResult = z.infer<typeof candlesResult>;
export const candlesResponse = envelope.extend({ data: candlesResult });
export type CandlesResponse = z.infer<typeof candlesResponse>;

/** What happened to a trade, at the time it happened, as the replay shows it (docs/review.md, Replay). */
export const REPLAY_EVENT_KINDS = [
  'entry',
  'stop_set',
  'stop_moved',
  'take_profit_set',
  'partial_close',
  'exit',
] as const;
export type ReplayEventKind = (typeof REPLAY_EVENT_KINDS)[number];
/** The granularities a replay offers, finest first. */
export const REPLAY_GRANULARITIES = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4'] as const;
export type ReplayGranularity = (typeof REPLAY_GRANULARITIES)[number];
export const REPLAY_LIMITS = { maxCandles: 500, defaultBefore: 50, maxBefore: 500 } as const;

/**
 * GET /api/v1/trade/get_replay/:accountId/:tradeId: `granularity` defaults to the finest that keeps the trade within
 * `REPLAY_LIMITS.maxCandles`; `before` (default 50) is how many candles before the entry the replay starts.
 */
export const replayParams = z.object({
  accountId: z.string().trim().min(1).max(200),
  tradeId: z.string().trim().min(1).max(64),
});
export const replayQuery = z.object({
  granularity: z
    .enum(REPLAY_GRANULARITIES, { error: `granularity must be one of ${REPLAY_GRANULARITIES.join(', ')}` })
    .optional(),
  before: z.coerce
    .number({ error: `before must be a whole number from 0 to ${REPLAY_LIMITS.maxBefore}` })
    .int(`before must be a whole number from 0 to ${REPLAY_LIMITS.maxBefore}`)
    .min(0, `before must be a whole number from 0 to ${REPLAY_LIMITS.maxBefore}`)
    .max(REPLAY_LIMITS.maxBefore, `before must be a whole number from 0 to ${REPLAY_LIMITS.maxBefore}`)
    .default(REPLAY_LIMITS.defaultBefore),
});
const replayEvent = z.object({
  time: z.string(),
  kind: z.enum(REPLAY_EVENT_KINDS),
  price: decimalString.nullable(),
  /** Units closed by a partial close or the exit; null for the others. */
  units: decimalString.nullable().default(null),
  /**
   * Set on a trailing stop's move read from the candles (a `stop_moved`): OANDA moves a trailing stop without a
   * transaction, so the replay derives its level from the candles' highs (a long) or lows (a short).
   */
  fromCandles: z.literal(true).optional(),
});
export type ReplayEvent = z.infer<typeof replayEvent>;
export const replay = z.object({
  instrument: z.string(),
  granularity: z.enum(REPLAY_GRANULARITIES),
  /** Mid candles, oldest first, from `before` candles ahead of the entry to the exit (or now, while open). */
  candles: z.array(candle),
  events: z.array(replayEvent),
  /** Index into `candles` of the candle holding the entry. */
  entryIndex: z.number().int(),
  side: z.enum(['long', 'short']),
  entryPrice: decimalString,
  units: decimalString,
  /** The instrument's pip in price (0.0001, 0.01 for JPY pairs and gold), for the open P/L and excursions in pips. */
  pipSize: decimalString,
  /** The account's currency and the value of one pip of this trade in it, for the open P/L; null when unknown. */
  currency: z.string().nullable(),
  pipValue: decimalString.nullable(),
  /** The money the initial stop risks (1 R), null without an initial stop. */
  riskAmount: decimalString.nullable(),
});
export type Replay = z.infer<typeof replay>;
export const replayResponse = envelope.extend({ data: replay });
