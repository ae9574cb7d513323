/**
 * The candle indicators of a trade's facts (docs/coach.md, Facts): pure functions of prices in time order, oldest
 * first. Each returns null when the series is too short to give the figure.
 */

/** One candle's prices as numbers. */
export interface Bar {
  /** Start of the candle, epoch milliseconds. */
  time: number;
  h: number;
  l: number;
  c: number;
}

/**
 * The exponential moving average of `closes` over `period`, at each of the last two closes: seeded with the simple
 * mean of the first `period` closes, then EMA = EMA + α (close − EMA), α = 2 / (period + 1). Null with fewer than
 * period + 1 closes (the slope needs two EMA values).
 */
function emaLastTwo(closes: readonly number[], period: number): { previous: number; last: number } | null {
  if (period < 1 || closes.length < period + 1) return null;
  let ema = 0;
  for (let i = 0; i < period; i += 1) ema += closes[i]!;
  ema /= period;
  const alpha = 2 / (period + 1);
  let previous = ema;
  for (let i = period; i < closes.length; i += 1) {
    previous = ema;
    ema += alpha * (closes[i]! - ema);
  }
  return { previous, last: ema };
}

/** The EMA's change over its last candle, in price per candle; null when emaLastTwo is. */
export function emaSlope(closes: readonly number[], period: number): number | null {
  const two = emaLastTwo(closes, period);
  return two === null ? null : two.last - two.previous;
}

/**
 * Wilder's average true range over `period`, at the last bar: the true range of a bar is the largest of its high −
 * low, |high − previous close| and |low − previous close| (so the first bar gives none); the first ATR is the mean
 * of the first `period` true ranges, then ATR = (ATR × (period − 1) + TR) / period. Null with fewer than period + 1
 * bars.
 */
export function averageTrueRange(bars: readonly Bar[], period: number): number | null {
  if (period < 1 || bars.length < period + 1) return null;
  const trueRange = (i: number): number => {
    const bar = bars[i]!;
    const close = bars[i - 1]!.c;
    return Math.max(bar.h - bar.l, Math.abs(bar.h - close), Math.abs(bar.l - close));
  };
  let atr = 0;
  for (let i = 1; i <= period; i += 1) atr += trueRange(i);
  atr /= period;
  for (let i = period + 1; i < bars.length; i += 1) atr = (atr * (period - 1) + trueRange(i)) / period;
  return atr;
}

/**
 * Where `price` sits in the high–low range of the last `count` bars, 0 (the lowest low) to 100 (the highest high),
 * clamped; null with fewer than `count` bars or a range of zero.
 */
export function rangePercentile(bars: readonly Bar[], count: number, price: number): number | null {
  if (count < 1 || bars.length < count) return null;
  let high = -Infinity;
  let low = Infinity;
  for (let i = bars.length - count; i < bars.length; i += 1) {
    high = Math.max(high, bars[i]!.h);
    low = Math.min(low, bars[i]!.l);
  }
  if (!(high > low)) return null;
  return Math.min(100, Math.max(0, ((price - low) / (high - low)) * 100));
}
