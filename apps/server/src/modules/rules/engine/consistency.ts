import type { RuleOf } from '@pipsense/contract';
import { amountOfPercent, comparePercent } from './amounts';

/**
 * The best-day (consistency) rule, docs/reference/prop-firms.md §8.7:
 *   ok ⇔ denominator > 0 and bestDay ≤ maxPct × denominator;   required = bestDay / maxPct
 * FTMO divides by the sum of the profitable days only (losing days do not lower it); E8 and FundedNext's add-on by
 * the net total; `max_target_net_total` by the larger of the profit target and the net total.
 */

export type Denominator = RuleOf<'consistency'>['params']['denominator'];

/** Day results folded so far, in minor units. */
export interface DayTotals {
  /** The best day's closed P/L; 0 before any profitable day. */
  best: number;
  /** Σ of the profitable days' closed P/L. */
  positiveSum: number;
  /** Σ of every day's closed P/L. */
  net: number;
}

export const NO_DAYS: DayTotals = { best: 0, positiveSum: 0, net: 0 };

/** The totals with one more day's closed P/L. */
export function withDay(totals: DayTotals, pnl: number): DayTotals {
  return {
    best: Math.max(totals.best, pnl),
    positiveSum: totals.positiveSum + (pnl > 0 ? pnl : 0),
    net: totals.net + pnl,
  };
}

export interface BestDayCheck {
  best: number;
  denominator: number;
  ok: boolean;
  /** The denominator at which the best day would be allowed (best × 100 / maxPct). */
  required: number | null;
  /** How much the denominator lacks (0 when ok). */
  shortfall: number | null;
}

export function checkBestDay(
  totals: DayTotals,
  maxPct: number,
  denominator: Denominator,
  targetMinor: number,
): BestDayCheck {
  const value =
    denominator === 'positive_days_sum'
      ? totals.positiveSum
      : denominator === 'net_total'
        ? totals.net
        : Math.max(targetMinor, totals.net);
  // A day with 0 P/L is not profitable, and a denominator of 0 or less is never satisfied (§8.9, item 11).
  const ok = value > 0 && comparePercent(totals.best, maxPct, value) <= 0;
  const required = amountOfPercent(totals.best, maxPct);
  return {
    best: totals.best,
    denominator: value,
    ok,
    required,
    shortfall: required === null ? null : ok ? 0 : Math.max(0, required - value),
  };
}
