import { z } from 'zod';
import { currencyAmount, currencyMode, decimalString, envelope, moneyFigure, MODES, timeZone } from './common';
import { TAG_KINDS } from './tags';
import { tradeFilterFields, withDateRange } from './trading';

/**
 * GET /api/v1/dashboard/metrics: the Overview analytics (docs/PRODUCT.md, Data shapes). Every metric is defined in
 * apps/server/src/modules/analytics/engine/METRICS.md; the shapes below mirror the engine's output.
 */

/**
 * Without `mode` the metrics cover demo and live together. The journal's filters slice them: `from`/`to`
 * on open time, one account, one instrument, trades with any of the tags, the trades that broke a rule of the user's
 * rule sets (`ruleBreak=true`) or kept them (`false`).
 */
export const dashboardMetricsQuery = withDateRange(
  z
    .object({
      timeZone: timeZone.default('UTC'),
      mode: z.enum(MODES, { error: 'mode must be demo or live' }).optional(),
    })
    .extend(
      tradeFilterFields.pick({
        platform: true,
        from: true,
        to: true,
        accountId: true,
        instrument: true,
        tag: true,
        ruleBreak: true,
        playbookId: true,
        playbookReview: true,
      }).shape,
    ),
);

/** A card rendered as a key/value list; '-' marks a value that does not exist for this data. */
const cardObject = z.record(z.string(), z.string());
/** Instrument Breakdown: instrument → key/value list. */
const nestedCardObject = z.record(z.string(), cardObject);

/** lightweight-charts point: `time` is UTC seconds (UTCTimestamp), strictly ascending. */
const chartPoint = z.object({ time: z.number(), value: z.number() });
export type ChartPoint = z.infer<typeof chartPoint>;

/** Closed-trade results of one weekday or hour, by open time in the user's zone. */
const bucketFacts = z.object({
  label: z.string(),
  trades: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  netPL: z.number(),
  /** %, 1 decimal; null without closed trades in the bucket. */
  winRate: z.number().nullable(),
});
export type BucketFacts = z.infer<typeof bucketFacts>;

const overviewCharts = z.object({
  /** Cumulative realized P/L after each closed trade. */
  equityCurve: z.array(chartPoint),
  /** Equity minus its running peak (≤ 0), same times as equityCurve. */
  drawdown: z.array(chartPoint),
  /** The same in % of peak equity; empty when the starting equity is unknown. */
  drawdownPercent: z.array(chartPoint),
  pnlByInstrument: z.array(z.object({ instrument: z.string(), netPL: z.number(), trades: z.number().int() })),
  /** Monday first, 7 entries. */
  byWeekday: z.array(bucketFacts),
  /** Hours 0–23 in the user's zone, 24 entries. */
  byHour: z.array(bucketFacts.extend({ hour: z.number().int() })),
});
export type OverviewCharts = z.infer<typeof overviewCharts>;

const INSIGHT_SOURCES = ['openai', 'vertexai', 'builtin'] as const;
const INSIGHT_STATUSES = ['ready', 'pending', 'fallback'] as const;

/**
 * Who wrote aiInsights, quickWins and longTermStrategy. `pending`: the AI provider is writing them
 * for this data (the built-in text is shown meanwhile; ask again later); `fallback`: the provider
 * failed, the built-in text is shown and `note` says why; `ready`: final for this data.
 */
const insightsStatus = z.object({
  source: z.enum(INSIGHT_SOURCES),
  status: z.enum(INSIGHT_STATUSES),
  note: z.string().nullable(),
  /** The provider's model when source is openai or vertexai. */
  model: z.string().nullable(),
  /** When the shown insights were written (RFC 3339); null for built-in text computed with the metrics. */
  writtenAt: z.string().nullable(),
});
export type InsightsStatus = z.infer<typeof insightsStatus>;

/**
 * One tag's closed trades: which setups pay and what each mistake costs (engine/METRICS.md). Every tag of the user
 * has a row, also one without closed trades in the view (trades 0).
 */
const tagFacts = z.object({
  tagId: z.string(),
  name: z.string(),
  kind: z.enum(TAG_KINDS),
  trades: z.number().int(),
  /** %, 1 decimal; null without closed trades. */
  winRate: z.number().nullable(),
  netPL: z.number(),
  /** Mean realized P/L per closed trade; null without closed trades. */
  expectancy: z.number().nullable(),
  /** Mean R of the tag's trades with an initial stop; null when none has one. */
  averageR: z.number().nullable(),
  /** How many of the tag's closed trades have an initial stop (the R figures cover these). */
  withInitialStop: z.number().int(),
});
export type TagFacts = z.infer<typeof tagFacts>;

/** Risk in R over the shown trades (engine/METRICS.md, "Risk in R"); trades without an initial stop are left out. */
const riskInR = z.object({
  /** Mean R-multiple of the closed trades with an initial stop, 2 decimals; null when none has one. */
  averageR: z.number().nullable(),
  /** Win rate × average win in R + loss rate × average loss in R over the same trades, 2 decimals; null likewise. */
  expectancyR: z.number().nullable(),
  /** Trades (any state) with an initial stop: the one "with a stop-loss" figure. */
  tradesWithInitialStop: z.number().int(),
  closedWithInitialStop: z.number().int(),
  /** Closed trades without an initial stop, left out of the R figures ("no initial stop"). */
  closedWithoutInitialStop: z.number().int(),
});

/**
 * How the Overview's money is shown. `mode` as in moneyFigure; `home` the trader's home currency; `currencies` the
 * accounts' currencies; `chartsCurrency` the currency the charts, the tags' P/L and the insights are in (when
 * listed: the home currency's accounts only, or the currency of the most trades); `note` says so in words.
 */
const overviewCurrency = z.object({
  mode: currencyMode,
  home: z.string(),
  currencies: z.array(z.string()),
  chartsCurrency: z.string().nullable(),
  note: z.string().nullable(),
});
export type OverviewCurrency = z.infer<typeof overviewCurrency>;

/** The Overview's headline money figures, each under the currency rule (moneyFigure); null without closed trades. */
const overviewMoney = z.object({
  netPL: moneyFigure.nullable(),
  grossProfit: moneyFigure.nullable(),
  grossLoss: moneyFigure.nullable(),
  financing: moneyFigure.nullable(),
  netPLAfterFinancing: moneyFigure.nullable(),
  maxDrawdown: moneyFigure.nullable(),
  unrealizedPL: moneyFigure.nullable(),
});
export type OverviewMoney = z.infer<typeof overviewMoney>;

/**
 * The time-weighted return of one currency's accounts in view (docs/money.md, Returns): the growth of their combined
 * balance with every deposit, withdrawal and credit of any of them cut out, never converted into another currency
 * (docs/decisions/024-currencies-never-mixed.md).
 */
const overviewReturn = z.object({
  currency: z.string(),
  /** Percent, a decimal string with 4 decimals ('8.0450' is 8.045 %). */
  total: decimalString,
  /** How many accounts of this currency the return combines. */
  accounts: z.number().int(),
});
export type OverviewReturn = z.infer<typeof overviewReturn>;

export const dashboardMetrics = z.object({
  tradeCount: z.number().int(),
  accountCount: z.number().int(),
  /** % of closed trades, 1 decimal; null without closed trades. */
  winRate: z.number().nullable(),
  lossRate: z.number().nullable(),
  topInstrument: z.string().nullable(),
  /** e.g. `3h 12m`. */
  avgHoldingTime: z.string().nullable(),
  weeklyTrades: z.number().int(),
  summary: z.string().nullable(),
  aiInsights: cardObject.nullable(),
  behavioralAnalysis: cardObject.nullable(),
  riskAssessment: cardObject.nullable(),
  quickWins: z.array(z.string()),
  longTermStrategy: cardObject.nullable(),
  performanceMetrics: cardObject.nullable(),
  tradingProfile: cardObject.nullable(),
  instrumentBreakdown: nestedCardObject.nullable(),
  charts: overviewCharts,
  /** Per journal tag, most trades first; empty without tags. */
  byTag: z.array(tagFacts),
  riskInR,
  /**
   * How the money figures are shown (docs/decisions/024-currencies-never-mixed.md). With several currencies the
   * cards' money values carry codes: converted into the home currency, or one value per currency side by side.
   */
  currency: overviewCurrency.optional(),
  /** The headline money figures under the currency rule. */
  money: overviewMoney.optional(),
  /**
   * The time-weighted return since the start of the accounts in view, one per account currency ordered by code
   * (docs/money.md, Returns on the Overview): the platform and mode's accounts, or the one `accountId` names; `from`
   * and `to` bound the range (bookings before `from` only set the starting value). Empty when those accounts have no
   * bookings; null in a view sliced by instrument or tag, whose trades are not the accounts' whole money.
   */
  returns: z.array(overviewReturn).nullable().optional(),
  /**
   * The trades in view that broke a trade-level rule of the user's rule sets (docs/rules.md, Where breaks are shown):
   * how many, and their net P/L (realized, as the Net P/L card counts it) summed exactly per account currency, ordered
   * by code, never added across currencies (docs/decisions/024-currencies-never-mixed.md). Null when the user has no
   * rule set with a trade-level rule.
   */
  ruleBreaks: z
    .object({ trades: z.number().int(), netPL: z.array(currencyAmount) })
    .nullable()
    .optional(),
  insights: insightsStatus,
  /** The last sync of the trades and accounts counted (RFC 3339); null when there are none. */
  dataAsOf: z.string().nullable(),
  /** When these metrics were computed (RFC 3339). */
  computedAt: z.string(),
});
export type DashboardMetrics = z.infer<typeof dashboardMetrics>;

export const dashboardMetricsResponse = envelope.extend({ data: dashboardMetrics });
export type DashboardMetricsResponse = z.infer<typeof dashboardMetricsResponse>;
