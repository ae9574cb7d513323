import { z } from 'zod';
import { isoWeek, type PatternResult, type TradeReviewData, type WeeklyReview } from '@pipsense/contract';

/**
 * What the assistant reads of the coach (docs/coach.md, The assistant), wired in app.ts to the coach's services: the
 * very functions behind GET coach/get_trade_review, get_patterns and get_weekly_review. The assistant computes no
 * fact, pattern or weekly figure itself, so its answers and the coach's screens say the same.
 */
export interface ChatCoach {
  /** The trade's stored review (or null) and its facts as computed now; an unknown trade is a 404 AppError. */
  tradeReview(userId: string, ref: { accountId: string; tradeId: string }): Promise<TradeReviewData>;
  /** Every pattern with its flagged trades and their cost, over the open times of the range (ISO instants). */
  patterns(userId: string, range: { from?: string | undefined; to?: string | undefined }): Promise<PatternResult[]>;
  /** An ended ISO week's review, made on the request when none is stored; a week not ended is a 400 AppError. */
  weeklyReview(userId: string, week: string): Promise<WeeklyReview>;
  /** The latest ended ISO week in the trader's zone (`2026-W47`). */
  lastEndedWeek(userId: string, now: Date): Promise<string>;
}

export const tradeReviewArgs = z.object({
  account_id: z.string().trim().min(1).max(200).describe("The trade's account id, as query_trades lists it."),
  trade_id: z.string().trim().min(1).max(64).describe('The trade id, as query_trades lists it.'),
});
export type TradeReviewArgs = z.input<typeof tradeReviewArgs>;

export const weeklyReviewArgs = z.object({
  week: isoWeek.optional().describe('An ended ISO week such as 2026-W47. Default: the last ended week.'),
});
export type WeeklyReviewArgs = z.input<typeof weeklyReviewArgs>;

export interface TradeReviewToolResult extends TradeReviewData {
  accountId: string;
  tradeId: string;
  note?: string;
}

export interface PatternsToolResult {
  period: { label: string; from: string | null; to: string | null };
  /** The patterns that flagged at least one trade, costliest first (by the flagged trades' average R, then count). */
  patterns: PatternResult[];
  /** Patterns that flagged nothing in the period. */
  clear: string[];
}

export interface WeeklyReviewToolResult {
  review: WeeklyReview;
}

/** Costliest first: the lowest average R of the flagged trades, then the most trades; unknown R after known. */
function byCost(a: PatternResult, b: PatternResult): number {
  const ra = a.averageR ?? Number.POSITIVE_INFINITY;
  const rb = b.averageR ?? Number.POSITIVE_INFINITY;
  return ra !== rb ? ra - rb : b.count - a.count;
}

export async function tradeReviewOf(
  coach: ChatCoach,
  userId: string,
  args: TradeReviewArgs,
): Promise<TradeReviewToolResult> {
  const { account_id: accountId, trade_id: tradeId } = tradeReviewArgs.parse(args);
  const data = await coach.tradeReview(userId, { accountId, tradeId });
  return {
    accountId,
    tradeId,
    ...data,
    ...(data.review === null
      ? { note: 'No review of this trade is written yet; the facts are computed now. "Review this trade" writes one.' }
      : data.stale
        ? { note: 'The stored review predates a change of the trade, its journal or its candles; the facts are now.' }
        : {}),
  };
}

export async function patternsOf(
  coach: ChatCoach,
  userId: string,
  period: { label: string; from: Date | null; to: Date | null },
): Promise<PatternsToolResult> {
  const from = period.from?.toISOString() ?? null;
  // The coach's `to` is inclusive; a period's end is exclusive.
  const to = period.to ? new Date(period.to.getTime() - 1).toISOString() : null;
  const all = await coach.patterns(userId, { ...(from ? { from } : {}), ...(to ? { to } : {}) });
  return {
    period: { label: period.label, from, to },
    patterns: all.filter((p) => p.count > 0).sort(byCost),
    clear: all.filter((p) => p.count === 0).map((p) => p.pattern),
  };
}

export async function weeklyReviewOf(
  coach: ChatCoach,
  userId: string,
  now: Date,
  args: WeeklyReviewArgs,
): Promise<WeeklyReviewToolResult> {
  const { week } = weeklyReviewArgs.parse(args);
  return { review: await coach.weeklyReview(userId, week ?? (await coach.lastEndedWeek(userId, now))) };
}
