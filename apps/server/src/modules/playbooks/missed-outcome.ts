import { compareDecimals, subtractDecimals } from '../../domain/decimal';
import { roundRatio } from '../../domain/rounding';

/** A missed trade's levels: prices as exact decimal strings (the contract's missedTradeBody). */
export interface MissedLevels {
  side: 'long' | 'short';
  /** When the setup was seen (ISO-8601): only candles starting then or later count. */
  time: string;
  entry: string;
  stop: string;
  target: string | null;
}

/** A candle as the walk reads it: its start time and mid high, low and close. */
export interface OutcomeCandle {
  time: string;
  h: string;
  l: string;
  c: string;
}

export interface MissedResult {
  outcome: 'target' | 'stop' | 'open';
  /** target: reward over risk; stop: −1; open: the R at the last close; null: no candle after the time yet. */
  wouldBeR: number | null;
  /** The start of the candle that reached the level (target or stop); null while open. */
  outcomeTime: string | null;
}

/**
 * What a missed trade would have done (docs/review.md, Missed trades): the candles from its time on, oldest first,
 * walked until one reaches the stop or the target. A long is stopped when a candle's low reaches the stop and hits
 * its target when a high reaches the target (a short the other way round). When one candle reaches both, the stop
 * counts: a candle does not say which came first, and the conservative reading is the loss. No level reached: still
 * open, at the R of the last close.
 */
export function missedOutcome(levels: MissedLevels, candles: readonly OutcomeCandle[]): MissedResult {
  const long = levels.side === 'long';
  const from = Date.parse(levels.time);
  // One R: the distance from entry to stop, positive for both sides.
  const risk = Math.abs(Number(subtractDecimals(levels.entry, levels.stop)));
  const rAt = (price: string) => {
    const move = Number(subtractDecimals(price, levels.entry));
    return roundRatio((long ? move : -move) / risk);
  };
  let last: OutcomeCandle | undefined;
  for (const candle of candles) {
    if (Date.parse(candle.time) < from) continue;
    last = candle;
    const stopped = long ? compareDecimals(candle.l, levels.stop) <= 0 : compareDecimals(candle.h, levels.stop) >= 0;
    if (stopped) return { outcome: 'stop', wouldBeR: -1, outcomeTime: candle.time };
    const target = levels.target;
    const reached =
      target !== null && (long ? compareDecimals(candle.h, target) >= 0 : compareDecimals(candle.l, target) <= 0);
    if (reached) return { outcome: 'target', wouldBeR: rAt(target), outcomeTime: candle.time };
  }
  return { outcome: 'open', wouldBeR: last ? rAt(last.c) : null, outcomeTime: null };
}
