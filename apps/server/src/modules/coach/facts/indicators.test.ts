import { describe, expect, it } from 'vitest';
import { averageTrueRange, emaSlope, rangePercentile, type Bar } from './indicators';

const bar = (h: number, l: number, c: number, i = 0): Bar => ({ time: i * 3_600_000, h, l, c });

describe('EMA slope', () => {
  it('matches the EMA computed by hand on a short series', () => {
    // period 3, α = 2 / (3 + 1) = 0.5; seed = mean(1, 2, 3) = 2
    // close 4: 2 + 0.5 × (4 − 2) = 3;  close 6: 3 + 0.5 × (6 − 3) = 4.5;  slope = 4.5 − 3 = 1.5
    expect(emaSlope([1, 2, 3, 4, 6], 3)).toBeCloseTo(1.5, 12);
    // one close fewer: seed 2, then 3: slope 3 − 2 = 1
    expect(emaSlope([1, 2, 3, 4], 3)).toBeCloseTo(1, 12);
  });

  it('follows a straight line exactly: its slope per candle', () => {
    // closes a + b·i: the seed is a + b(n − 1)/2, the next close is b(n + 1)/2 above it, and α = 2/(n + 1) takes
    // exactly b of that; so each step of the EMA is b = 0.0002 (2 pips on EUR_USD)
    const closes = Array.from({ length: 60 }, (_, i) => 1.1 + 0.0002 * i);
    expect(emaSlope(closes, 50)).toBeCloseTo(0.0002, 12);
    expect(
      emaSlope(
        closes.map((c) => -c),
        50,
      ),
    ).toBeCloseTo(-0.0002, 12);
  });

  it('needs period + 1 closes', () => {
    expect(emaSlope([1, 2, 3], 3)).toBeNull();
    expect(
      emaSlope(
        Array.from({ length: 50 }, () => 1),
        50,
      ),
    ).toBeNull();
  });
});

describe('ATR (Wilder)', () => {
  const bars = [
    bar(10, 8, 9),
    bar(11, 9, 10), // TR = max(11 − 9, |11 − 9|, |9 − 9|) = 2
    bar(12, 10.5, 11), // TR = max(1.5, |12 − 10|, |10.5 − 10|) = 2
    bar(11.5, 10, 10.5), // TR = max(1.5, |11.5 − 11|, |10 − 11|) = 1.5
    bar(14, 12, 13), // TR = max(2, |14 − 10.5|, |12 − 10.5|) = 3.5
  ];
  it('is the mean of the first true ranges, then smoothed', () => {
    // first ATR(3) = (2 + 2 + 1.5) / 3 = 11/6
    expect(averageTrueRange(bars.slice(0, 4), 3)).toBeCloseTo(11 / 6, 12);
    // then (11/6 × 2 + 3.5) / 3 = 43/18 ≈ 2.3889
    expect(averageTrueRange(bars, 3)).toBeCloseTo(43 / 18, 12);
  });
  it('needs period + 1 bars', () => {
    expect(averageTrueRange(bars.slice(0, 3), 3)).toBeNull();
  });
});

describe('range percentile', () => {
  const bars = [bar(20, 1, 5), bar(10, 8, 9), bar(12, 9, 10), bar(11, 7, 8), bar(9, 8, 8.5)];
  it('places the price in the high–low range of the last candles', () => {
    // last 4: high max(10, 12, 11, 9) = 12, low min(8, 9, 7, 8) = 7; (11 − 7) / (12 − 7) = 80 %
    expect(rangePercentile(bars, 4, 11)).toBeCloseTo(80, 12);
    // (8 − 7) / 5 = 20 %
    expect(rangePercentile(bars, 4, 8)).toBeCloseTo(20, 12);
    // last 2: high 11, low 7; (9 − 7) / 4 = 50 %
    expect(rangePercentile(bars, 2, 9)).toBeCloseTo(50, 12);
    // the first candle (20 / 1) counts only when it is among the last ones: (11 − 1) / 19
    expect(rangePercentile(bars, 5, 11)).toBeCloseTo((10 / 19) * 100, 12);
  });
  it('clamps outside the range, and gives nothing without enough candles or a range', () => {
    expect(rangePercentile(bars, 4, 13)).toBe(100);
    expect(rangePercentile(bars, 4, 6)).toBe(0);
    expect(rangePercentile(bars, 6, 10)).toBeNull();
    expect(rangePercentile([bar(1, 1, 1), bar(1, 1, 1)], 2, 1)).toBeNull();
  });
});
