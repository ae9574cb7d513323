/**
 * Running totals of results in R (METRICS.md, "Risk in R"). Each trade's R-multiple comes from domain/risk.ts
 * (rMultipleOf, 2 decimals); here they are only summed, exactly, in integer hundredths of R. The overview and the
 * by-tag breakdown (and through it the assistant's compare_tags) use this one tally.
 */
import { round } from '../../../domain/rounding';

export class RTally {
  /** Closed trades with an initial stop (an R-multiple). */
  trades = 0;
  /** Closed trades without one: left out of every R figure, counted so the screen can say so. */
  withoutStop = 0;
  /** Sum of R, hundredths. */
  sum = 0;
  wins = 0;
  winSum = 0;
  losses = 0;
  lossSum = 0;

  /** One closed trade: its R-multiple (null: no initial stop) and the sign of its P/L (win 1, loss −1, 0). */
  add(r: number | null, sign: number): void {
    if (r === null) {
      this.withoutStop++;
      return;
    }
    const cents = Math.round(r * 100);
    this.trades++;
    this.sum += cents;
    if (sign > 0) {
      this.wins++;
      this.winSum += cents;
    } else if (sign < 0) {
      this.losses++;
      this.lossSum += cents;
    }
  }
}

/** Mean R over the closed trades with an initial stop, 2 decimals; null without any. */
export const averageR = (t: RTally): number | null => (t.trades === 0 ? null : round(t.sum / t.trades / 100, 2));

/** Mean R of the winning / losing trades among them, 2 decimals; null without wins / losses. */
export const averageWinR = (t: RTally): number | null => (t.wins === 0 ? null : round(t.winSum / t.wins / 100, 2));
export const averageLossR = (t: RTally): number | null =>
  t.losses === 0 ? null : round(t.lossSum / t.losses / 100, 2);

/**
 * Expectancy in R: win rate × average win in R + loss rate × average loss in R (the loss being negative), rates
 * over the same trades; 2 decimals, null without trades with an initial stop. Break-evens add nothing.
 */
export function expectancyR(t: RTally): number | null {
  if (t.trades === 0) return null;
  const wins = t.wins === 0 ? 0 : (t.wins / t.trades) * (t.winSum / t.wins);
  const losses = t.losses === 0 ? 0 : (t.losses / t.trades) * (t.lossSum / t.losses);
  return round((wins + losses) / 100, 2);
}
