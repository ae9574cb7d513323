import { z } from 'zod';
import { envelope, isoTime, moneyFigure } from './common';
import { platformParam } from './platforms';

/*
 * The coach (docs/coach.md): a grounded review of each closed trade, behaviour patterns with their cost, and a weekly
 * review. Code computes every fact; a provider (or the built-in analyst, with no provider at all) only phrases and
 * orders them, and every point of a review names the facts it rests on. Every route is scoped to the signed-in user;
 * another user's trade or week answers 404.
 *
 * - `GET  /api/v1/coach/get_trade_review/:accountId/:tradeId` → `tradeReviewResponse`: the stored review (or null)
 *   with its facts; `stale` when the trade, its journal or its candles changed since it was written.
 * - `POST /api/v1/coach/review_trade/:accountId/:tradeId` `reviewTradeBody` → `tradeReviewResponse`: makes it now
 *   (with the provider when one is configured; 429 past the per-user limits).
 * - `GET  /api/v1/coach/get_patterns?from&to&accountId&platform` → `patternsResponse`
 * - `GET  /api/v1/coach/get_settings` → `coachSettingsResponse`
 * - `POST /api/v1/coach/update_settings` `coachSettingsBody` → `coachSettingsResponse`
 * - `GET  /api/v1/coach/get_weekly_reviews` → `weeklyReviewsResponse`: the stored weeks, newest first, the unread
 *   count and the latest ended week in the trader's zone.
 * - `GET  /api/v1/coach/get_weekly_review/:week` → `weeklyReviewResponse`: an ISO week such as `2026-W47`; an ended
 *   week with none stored is made on the request; a week that has not ended is a 400.
 * - `POST /api/v1/coach/read_weekly_review/:week` → `weeklyReviewResponse`: marks its notice read.
 */

// ── Facts ──────────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The facts of one trade, by name (docs/coach.md, Facts). A fact that cannot be computed (no candles, no stop, an
 * open trade) is left out of the list rather than given a null value.
 */
export const COACH_FACT_NAMES = [
  /** Slope of the 50-period EMA of H1 closes at entry, in pips per candle. */
  'trend_h1_slope',
  /** Slope of the 50-period EMA of H4 closes at entry, in pips per candle. */
  'trend_h4_slope',
  /** 'with' | 'against' | 'flat': the trade's side against the H4 trend (H1 when H4 is flat or unknown). */
  'trend_alignment',
  /** Where the entry sat in the high–low range of the last 50 candles before it, 0–100. */
  'entry_range_percentile',
  /** The initial stop distance over ATR(14) at entry. */
  'stop_atr_multiple',
  /** true when the stop sat within normal noise (under 1 ATR). */
  'stop_inside_noise',
  /** The share of the most favourable move the exit kept, percent. */
  'mfe_capture_pct',
  /** R the trade gave back from its best point to the exit. */
  'r_left_on_table',
  /** The trade's result in R. */
  'result_r',
  /** The holding time in minutes. */
  'hold_minutes',
  /** The holding time over the trader's median on the instrument. */
  'hold_vs_median',
  /** The session of the entry: Asia, London, New York or Off hours. */
  'session',
  /** The size over the trader's median size on the instrument. */
  'size_vs_usual',
  /** Playbook rules ticked and broken on the trade's review. */
  'playbook_rules_followed',
  'playbook_rules_broken',
  /** Trade-level breaks of the trader's personal rules. */
  'personal_rule_breaks',
  /** Minutes between the close of a losing trade and this entry (within the revenge window only). */
  'minutes_after_loss',
] as const;
export type CoachFactName = (typeof COACH_FACT_NAMES)[number];

export const coachFact = z.object({
  name: z.enum(COACH_FACT_NAMES),
  /** Numbers rounded for reading; text and booleans as they are. */
  value: z.union([z.number(), z.string(), z.boolean()]),
  /** The plain sentence of the fact, with its value written in. */
  text: z.string(),
});
export type CoachFact = z.infer<typeof coachFact>;

// ── A trade's review ───────────────────────────────────────────────────────────────────────────────────────────────

export const REVIEW_LIMITS = { pointText: 400, actionText: 400, minPoints: 2, maxPoints: 4 } as const;

/** One point of a review: a sentence and the fact names it rests on (at least one, each among the review's facts). */
const reviewPoint = z.object({
  text: z.string().trim().min(1).max(REVIEW_LIMITS.pointText),
  facts: z.array(z.enum(COACH_FACT_NAMES)).min(1),
});
export type ReviewPoint = z.infer<typeof reviewPoint>;

export const tradeReview = z.object({
  wentWell: z.array(reviewPoint).min(REVIEW_LIMITS.minPoints).max(REVIEW_LIMITS.maxPoints),
  toImprove: z.array(reviewPoint).min(REVIEW_LIMITS.minPoints).max(REVIEW_LIMITS.maxPoints),
  action: reviewPoint,
  /** The execution score, 1–5, and the rubric it was given by (the same rubric for every review). */
  score: z.object({ value: z.number().int().min(1).max(5), rubric: z.string() }),
});
export type TradeReview = z.infer<typeof tradeReview>;

/** `builtin`: the built-in analyst wrote it; otherwise the provider's model name. */
export const BUILTIN_SOURCE = 'builtin';

export const reviewTradeBody = z.object({}).strict().default({});

const tradeReviewData = z.object({
  review: tradeReview.nullable(),
  /** The facts as computed now (when the review is stale, they may differ from those it cites). */
  facts: z.array(coachFact),
  /** Who wrote the stored review; null with no review. */
  source: z.string().nullable(),
  /** The trade's data version the facts were computed from (trade, journal entry and candles). */
  dataVersion: z.string(),
  /** The stored review predates a change of the trade, its journal entry or its candles. */
  stale: z.boolean(),
  /** When the stored review was written (UTC ISO-8601); null with no review. */
  createdAt: z.string().nullable(),
  /** Patterns that flag the trade (ids of COACH_PATTERNS). */
  patterns: z.array(z.string()),
});
export type TradeReviewData = z.infer<typeof tradeReviewData>;
export const tradeReviewResponse = envelope.extend({ data: tradeReviewData });

// ── Patterns ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** The behaviour patterns' ids (engine/METRICS.md defines each). */
export const COACH_PATTERNS = [
  'revenge_trading',
  'overtrading',
  'size_escalation',
  'off_session',
  'holding_losers',
  'stop_moved_away',
  'early_exit',
] as const;
export type CoachPattern = (typeof COACH_PATTERNS)[number];

/** How each pattern reads, on screen and in the assistant's answers alike. */
export const PATTERN_LABELS: Record<CoachPattern, string> = {
  revenge_trading: 'Revenge trading',
  overtrading: 'Overtrading',
  size_escalation: 'Size escalation',
  off_session: 'Off-session trading',
  holding_losers: 'Holding losers',
  stop_moved_away: 'Stop moved away',
  early_exit: 'Early exits',
};

/** A pattern id a newer server sends that this code does not know reads as itself rather than vanishing. */
export const patternLabel = (id: string) => PATTERN_LABELS[id as CoachPattern] ?? id;

export const patternsQuery = z
  .object({
    from: isoTime('from').optional(),
    to: isoTime('to').optional(),
    accountId: z.string().trim().min(1).max(200).optional(),
    platform: platformParam,
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'from must not be after to', path: ['from'] });

const tradeRef = z.object({ accountId: z.string(), tradeId: z.string() });

const patternResult = z.object({
  pattern: z.enum(COACH_PATTERNS),
  /** The definition in words, with the trader's thresholds written in. */
  definition: z.string(),
  trades: z.array(tradeRef),
  count: z.number().int(),
  /** Net P/L of the flagged closed trades, and of the other closed trades of the range; null when none. */
  netPL: moneyFigure.nullable(),
  othersNetPL: moneyFigure.nullable(),
  /** Mean R of the flagged and of the other closed trades with an initial stop; null when none. */
  averageR: z.number().nullable(),
  othersAverageR: z.number().nullable(),
});
export type PatternResult = z.infer<typeof patternResult>;
export const patternsResponse = envelope.extend({ data: z.array(patternResult) });

// ── Settings ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** The detectors' thresholds, each adjustable (engine/METRICS.md, Behaviour patterns). */
export const coachThresholds = z.object({
  /** Revenge trading and the "entry after a loss" fact: minutes after a losing trade's close. */
  revengeMinutes: z.number().int().min(1).max(1440),
  /** Overtrading: a day's trades above this percentile of the trader's own active days. */
  overtradingPercentile: z.number().int().min(50).max(99),
  /** Size escalation: this many consecutive losses before a larger trade. */
  escalationLosses: z.number().int().min(1).max(10),
  /** Off-session: earlier trades a session needs before its expectancy is judged. */
  offSessionMinTrades: z.number().int().min(3).max(500),
  /** Holding losers: a loser held at least this many times the winners' median hold. */
  holdingRatio: z.number().min(1).max(20),
  /** Early exit: winners that kept less than this percent of their MFE. */
  earlyExitCapturePct: z.number().int().min(1).max(99),
});
export type CoachThresholds = z.infer<typeof coachThresholds>;

export const DEFAULT_COACH_THRESHOLDS: CoachThresholds = {
  revengeMinutes: 30,
  overtradingPercentile: 90,
  escalationLosses: 2,
  offSessionMinTrades: 10,
  holdingRatio: 1.5,
  earlyExitCapturePct: 30,
};

const coachSettings = z.object({
  /** Review each new closed trade in the background (with the built-in analyst unless aiWritten). */
  autoReview: z.boolean(),
  /** "AI-written reviews": background reviews may use the provider, within COACH_DAILY_REQUESTS. */
  aiWritten: z.boolean(),
  /** The ISO weekday (Monday = 1) and local hour the weekly review is composed. */
  weeklyDay: z.number().int().min(1).max(7),
  weeklyHour: z.number().int().min(0).max(23),
  /** Email the weekly review (when mail is configured). */
  emailWeekly: z.boolean(),
  thresholds: coachThresholds,
});
export type CoachSettings = z.infer<typeof coachSettings>;

export const DEFAULT_COACH_SETTINGS: CoachSettings = {
  autoReview: false,
  aiWritten: false,
  weeklyDay: 1,
  weeklyHour: 7,
  emailWeekly: false,
  thresholds: DEFAULT_COACH_THRESHOLDS,
};

/** Any subset; thresholds may be given in part. */
export const coachSettingsBody = z
  .object({
    autoReview: z.boolean({ error: 'autoReview must be true or false' }),
    aiWritten: z.boolean({ error: 'aiWritten must be true or false' }),
    weeklyDay: z
      .number({ error: 'weeklyDay must be a weekday from 1 (Monday) to 7 (Sunday)' })
      .int('weeklyDay must be a weekday from 1 (Monday) to 7 (Sunday)')
      .min(1, 'weeklyDay must be a weekday from 1 (Monday) to 7 (Sunday)')
      .max(7, 'weeklyDay must be a weekday from 1 (Monday) to 7 (Sunday)'),
    weeklyHour: z
      .number({ error: 'weeklyHour must be an hour from 0 to 23' })
      .int('weeklyHour must be an hour from 0 to 23')
      .min(0, 'weeklyHour must be an hour from 0 to 23')
      .max(23, 'weeklyHour must be an hour from 0 to 23'),
    emailWeekly: z.boolean({ error: 'emailWeekly must be true or false' }),
    thresholds: coachThresholds.partial(),
  })
  .partial()
  .strict();
export type CoachSettingsBody = z.input<typeof coachSettingsBody>;
export const coachSettingsResponse = envelope.extend({ data: coachSettings });

// ── Weekly reviews ─────────────────────────────────────────────────────────────────────────────────────────────────

/** An ISO week, `2026-W47`. */
export const isoWeek = z
  .string({ error: 'week must be an ISO week such as 2026-W47' })
  .trim()
  .regex(/^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$/, 'week must be an ISO week such as 2026-W47');
export const weekParams = z.object({ week: isoWeek });

/** A week's figures; money under the currency rule, rates and R as numbers. */
const weekFigures = z.object({
  trades: z.number(),
  netPL: moneyFigure.nullable(),
  /** Sum of R of the closed trades with an initial stop. */
  totalR: z.number().nullable(),
  /** Percent of closed trades with a positive net. */
  winRate: z.number().nullable(),
});

const weeklyTrade = z.object({
  accountId: z.string(),
  tradeId: z.string(),
  instrument: z.string(),
  side: z.enum(['long', 'short']),
  openTime: z.string(),
  closeTime: z.string().nullable(),
  netPL: moneyFigure,
  rMultiple: z.number().nullable(),
  review: tradeReview.nullable(),
  reviewSource: z.string().nullable(),
});

export const weeklyReview = z.object({
  week: z.string(),
  /** The week's bounds (UTC ISO-8601): Monday 00:00 to the next Monday 00:00 in `timeZone`. */
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  figures: weekFigures,
  /** The mean of the 12 weeks before (trades a week, net P/L a week, R a week, win rate); null with no history. */
  baseline: weekFigures.extend({ weeks: z.number().int() }).nullable(),
  best: z.array(weeklyTrade),
  worst: z.array(weeklyTrade),
  patterns: z.array(patternResult.omit({ definition: true }).extend({ definition: z.string() })),
  /** Trade-level breaks of the personal rules this week; null when the trader keeps no rule sets. */
  ruleBreaks: z.object({ trades: z.number().int(), breaks: z.number().int() }).nullable(),
  /** The follow rate of the week's reviewed playbook trades; null when none is reviewed. */
  playbooks: z.object({ reviewed: z.number().int(), followRate: z.number().nullable() }).nullable(),
  /** Mood of the journal's days against the day's net P/L; null without moods. */
  mood: z
    .object({
      days: z.array(z.object({ date: z.string(), mood: z.number().int(), netPL: moneyFigure.nullable() })),
      summary: z.string(),
    })
    .nullable(),
  /** One focus for next week, and how last week's focus went. */
  focus: z.object({
    text: z.string(),
    pattern: z.enum(COACH_PATTERNS).nullable(),
    /**
     * The week's figure the focus names, when it names one (the win rate, or the count of trades) rather than a
     * pattern or the rules; next week's review checks it. Absent otherwise, and in reviews stored before it was kept.
     */
    figure: z.enum(['win_rate', 'trades']).optional(),
  }),
  previousFocus: z
    .object({
      text: z.string(),
      pattern: z.enum(COACH_PATTERNS).nullable(),
      /**
       * Whether this week kept it (the pattern did not recur or recurred less, fewer trades broke a rule, the win
       * rate rose, fewer trades were taken); null when it cannot be told.
       */
      kept: z.boolean().nullable(),
      /** The sentence that says how it went. */
      outcome: z.string(),
    })
    .nullable(),
  /** The review in sentences, each grounded in the figures above. */
  summary: z.array(z.string()),
  source: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type WeeklyReview = z.infer<typeof weeklyReview>;
export const weeklyReviewResponse = envelope.extend({ data: weeklyReview });

const weeklyReviewListItem = z.object({
  week: z.string(),
  from: z.string(),
  to: z.string(),
  trades: z.number().int(),
  netPL: moneyFigure.nullable(),
  focus: z.string(),
  source: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type WeeklyReviewListItem = z.infer<typeof weeklyReviewListItem>;
export const weeklyReviewsResponse = envelope.extend({
  data: z.object({
    weeks: z.array(weeklyReviewListItem),
    unread: z.number().int(),
    /** The latest ended ISO week in the trader's time zone: the one "Open last week" asks for. */
    lastEnded: z.string(),
  }),
});
