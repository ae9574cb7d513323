import { z } from 'zod';
import { decimalString, envelope, isoTime } from './common';
import { PLATFORM_QUERIES } from './platforms';
import { withDateRange } from './trading';

/*
 * Money over time: an account's cash flows, its balance and equity history, and its returns.
 */

// ── Cash flows: GET /api/v1/money/get_cash_flows ───────────────────────────────────────────────────────────────

/**
 * What moved an account's balance apart from its trades (docs/decisions/022-transaction-store.md, What a cash flow
 * is): OANDA's transfers by sign, daily financing and adjustments; MetaTrader's balance operations (deposit and
 * withdrawal by sign, credit, a broker's charge or commission booked apart from a trade a `fee`, anything else an
 * adjustment). OANDA books no fee apart from a trade.
 */
const CASH_FLOW_TYPES = ['deposit', 'withdrawal', 'credit', 'financing', 'fee', 'adjustment'] as const;

/**
 * A time bound as given, to the nanosecond (a stored cash flow's own time bounds it exactly); a date alone is its
 * midnight UTC. The server reads it into the stored UTC form.
 */
const timeBound = (field: string) =>
  z
    .string({ error: `${field} must be an ISO-8601 date or time` })
    .trim()
    .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), {
      message: `${field} must be an ISO-8601 date or time, e.g. 2025-01-31 or 2025-01-31T12:00:00Z`,
    })
    .transform((v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v));

/**
 * `accountId` names an account as the other routes do (an OANDA login or a MetaTrader account key); `platform`
 * keeps one platform's accounts (all platforms when absent); `from`/`to` bound the time (inclusive, ISO-8601).
 */
export const cashFlowsQuery = withDateRange(
  z.object({
    accountId: z.string().trim().min(1, 'accountId must not be empty').max(200, 'accountId is too long').optional(),
    from: timeBound('from').optional(),
    to: timeBound('to').optional(),
    platform: z.enum(PLATFORM_QUERIES, { error: `platform must be ${PLATFORM_QUERIES.join(' or ')}` }).optional(),
  }),
);

/** One cash flow: `amount` signed (a withdrawal is negative) in `currency`, the account's; `time` UTC RFC 3339. */
const cashFlowItem = z.object({
  accountId: z.string(),
  time: z.string(),
  type: z.enum(CASH_FLOW_TYPES),
  amount: decimalString,
  currency: z.string().nullable(),
  comment: z.string().nullable(),
});
export type CashFlowItem = z.infer<typeof cashFlowItem>;

/** Oldest first. */
export const cashFlowsResponse = envelope.extend({ data: z.array(cashFlowItem) });
export type CashFlowsResponse = z.infer<typeof cashFlowsResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Balance and equity over time, and returns (apps/server modules/money; docs/money.md defines B(t), E(t) and TWR)
// ---------------------------------------------------------------------------------------------------------------

const moneyAccountId = z
  .string({ error: 'accountId is required: the account key or its login' })
  .trim()
  .min(1, 'accountId is required: the account key or its login')
  .max(200, 'accountId is too long');

const BALANCE_RESOLUTIONS = ['trade', 'hour', 'day'] as const;
export type BalanceResolution = (typeof BALANCE_RESOLUTIONS)[number];
const RETURN_PERIODS = ['day', 'month', 'year'] as const;
export type ReturnPeriodName = (typeof RETURN_PERIODS)[number];

/** GET /api/v1/money/get_balance_history/:accountId */
export const balanceHistoryParams = z.object({ accountId: moneyAccountId });
export const balanceHistoryQuery = withDateRange(
  z.object({
    from: isoTime('from').optional(),
    to: isoTime('to').optional(),
    resolution: z
      .enum(BALANCE_RESOLUTIONS, { error: 'resolution must be trade, hour or day' })
      .optional()
      .default('trade'),
  }),
);

/**
 * One point of the history: the balance B(t) and the equity E(t) at `time`. `equity` is null where it is not
 * known (no sample near it, and no candles: an import without an OANDA connection, or a rebuild still running);
 * `equitySource` says where a known equity came from.
 */
const balancePoint = z.object({
  time: z.string(),
  balance: decimalString,
  equity: decimalString.nullable(),
  equitySource: z.enum(['sample', 'candles']).nullable(),
});
export type BalancePoint = z.infer<typeof balancePoint>;

const balanceHistory = z.object({
  /** The account's currency; null when the broker or report named none. */
  currency: z.string().nullable(),
  points: z.array(balancePoint),
  /** false while the rebuild from candles runs, or where equity stays unknown: ask again later. */
  equityComplete: z.boolean(),
});
export type BalanceHistory = z.infer<typeof balanceHistory>;
export const balanceHistoryResponse = envelope.extend({ data: balanceHistory });
export type BalanceHistoryResponse = z.infer<typeof balanceHistoryResponse>;

/** GET /api/v1/money/get_returns */
export const returnsQuery = withDateRange(
  z.object({
    accountId: moneyAccountId,
    from: isoTime('from').optional(),
    to: isoTime('to').optional(),
    period: z.enum(RETURN_PERIODS, { error: 'period must be day, month or year' }).optional().default('month'),
  }),
);

/** Time-weighted returns in percent, as decimal strings with 4 decimals ('8.0450' is 8.045 %). */
const returns = z.object({
  currency: z.string().nullable(),
  total: decimalString,
  /** Each period's UTC start (ISO-8601) and its return. */
  periods: z.array(z.object({ start: z.string(), return: decimalString })),
});
export type MoneyReturns = z.infer<typeof returns>;
export const returnsResponse = envelope.extend({ data: returns });
export type ReturnsResponse = z.infer<typeof returnsResponse>;
