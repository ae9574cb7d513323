/**
 * The one definition of trade performance, shared by the Overview (analytics engine), the
 * assistant's get_performance tool, the built-in analyst and the insights. Definitions as in
 * modules/analytics/engine/METRICS.md: a closed trade with P/L > 0 is a win, < 0 a loss, exactly
 * 0 a break-even; money in exact minor units (money.ts); rates 1 decimal, ratios 2.
 */
import { meanMinorUnits, MINOR_PER_UNIT } from './money';
import { percent, roundRate, roundRatio } from './rounding';

/** Running totals of closed trades, fed one trade at a time (the engine's single pass calls it). */
export class PerformanceTally {
  trades = 0;
  wins = 0;
  losses = 0;
  breakEvens = 0;
  /** Sum of winning P/L, minor units (≥ 0). */
  grossProfit = 0;
  /** Sum of losing P/L, minor units (≤ 0). */
  grossLoss = 0;
  /** Financing of the closed trades, minor units (kept apart from P/L). */
  financing = 0;
  /** Highest and lowest P/L of any trade, minor units (0 without trades). */
  highest = 0;
  lowest = 0;
  /** Position (order of add) of the first trade with the highest / lowest P/L; −1 without trades. */
  highestAt = -1;
  lowestAt = -1;

  /** Adds one closed trade: P/L and financing in minor units. Returns the P/L's sign (1, −1 or 0). */
  add(pl: number, financing: number): number {
    const at = this.trades++;
    this.financing += financing;
    if (at === 0 || pl > this.highest) {
      this.highest = pl;
      this.highestAt = at;
    }
    if (at === 0 || pl < this.lowest) {
      this.lowest = pl;
      this.lowestAt = at;
    }
    if (pl > 0) {
      this.wins++;
      this.grossProfit += pl;
      return 1;
    }
    if (pl < 0) {
      this.losses++;
      this.grossLoss += pl;
      return -1;
    }
    this.breakEvens++;
    return 0;
  }
}

/** Net realized P/L, minor units. */
export function netPL(t: PerformanceTally): number {
  const net = t.grossProfit + t.grossLoss;
  if (!Number.isSafeInteger(t.grossProfit) || !Number.isSafeInteger(t.grossLoss))
    throw new RangeError('P/L sum beyond the exact range');
  return net;
}

/** Net P/L plus financing, minor units. */
export const netAfterFinancing = (t: PerformanceTally): number => netPL(t) + t.financing;

/** wins / closed trades × 100, 1 decimal; null without closed trades. */
export const winRate = (t: PerformanceTally): number | null => percent(t.wins, t.trades);

/** losses / closed trades × 100, 1 decimal; null without closed trades. */
export const lossRate = (t: PerformanceTally): number | null => percent(t.losses, t.trades);

/** Gross profit / |gross loss|, 2 decimals; null without a losing trade. */
export const profitFactor = (t: PerformanceTally): number | null =>
  t.grossLoss < 0 ? roundRatio(t.grossProfit / -t.grossLoss) : null;

/** Mean P/L per closed trade (expectancy), minor units rounded to `decimals` of the currency; null without trades. */
export const averagePL = (t: PerformanceTally, decimals?: number): number | null =>
  t.trades === 0 ? null : meanMinorUnits(netPL(t), t.trades, decimals);

/** Mean winning / losing P/L, minor units rounded to `decimals`; null without wins / losses. */
export const averageWin = (t: PerformanceTally, decimals?: number): number | null =>
  t.wins === 0 ? null : meanMinorUnits(t.grossProfit, t.wins, decimals);
export const averageLoss = (t: PerformanceTally, decimals?: number): number | null =>
  t.losses === 0 ? null : meanMinorUnits(t.grossLoss, t.losses, decimals);

/** Average win / |average loss|, unrounded; null without wins or losses. */
function rawPayoff(t: PerformanceTally): number | null {
  if (t.wins === 0 || t.losses === 0) return null;
  return t.grossProfit / MINOR_PER_UNIT / t.wins / -(t.grossLoss / MINOR_PER_UNIT / t.losses);
}

/** Average win / |average loss|, 2 decimals; null without wins or losses. */
export function payoffRatio(t: PerformanceTally): number | null {
  const payoff = rawPayoff(t);
  return payoff === null ? null : roundRatio(payoff);
}

/** The win rate (percent, 1 decimal) at which this payoff ratio breaks even; null without wins or losses. */
export function breakEvenWinRate(t: PerformanceTally): number | null {
  const payoff = rawPayoff(t);
  return payoff === null ? null : roundRate(100 / (1 + payoff));
}

/** The largest winning / losing P/L, minor units; null without wins / losses. */
export const largestWin = (t: PerformanceTally): number | null => (t.wins > 0 ? t.highest : null);
export const largestLoss = (t: PerformanceTally): number | null => (t.losses > 0 ? t.lowest : null);

/** An average win in currency units (unrounded), for ratios against other amounts. */
export const rawAverageWin = (t: PerformanceTally): number | null =>
  t.wins === 0 ? null : t.grossProfit / MINOR_PER_UNIT / t.wins;
