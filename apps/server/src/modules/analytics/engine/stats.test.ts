import { describe, expect, it } from 'vitest';
import { compareTradeIds, median, orderByTime } from './stats';

function randomSource(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

describe('median', () => {
  it('takes medians by selection', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 5, 5, 1, 9, 9])).toBe(5);
    expect(median([])).toBeNaN();
  });

  it('agrees with a sort on many inputs with duplicates', () => {
    const random = randomSource(7);
    for (let run = 0; run < 500; run++) {
      const values = Array.from({ length: 1 + Math.floor(random() * 40) }, () => Math.floor(random() * 8));
      const sorted = [...values].sort((a, b) => a - b);
      const middle = sorted.length >> 1;
      const expected = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
      expect(median(values)).toBe(expected);
    }
  });
});

describe('orderByTime', () => {
  const reference = (times: Float64Array, tie: (a: number, b: number) => number): number[] =>
    Array.from({ length: times.length }, (_, k) => k).sort((a, b) => times[a]! - times[b]! || tie(a, b));

  it('matches a comparison sort, ties within a second and all', () => {
    const random = randomSource(3);
    const byPositionDesc = (a: number, b: number): number => b - a;
    for (let run = 0; run < 50; run++) {
      const count = 1 + Math.floor(random() * 300);
      // a few hours of history at millisecond resolution, with repeated instants
      const times = Float64Array.from(
        { length: count },
        () => 1.75e12 + Math.floor(random() * 20) * 1000 + (random() < 0.5 ? 0 : Math.floor(random() * 999)),
      );
      expect(Array.from(orderByTime(times, count, byPositionDesc))).toEqual(reference(times, byPositionDesc));
    }
  });

  it('falls back to comparisons when packed keys would lose precision', () => {
    // 10,000 items over 30,000 years of seconds: span × count exceeds 2^53
    const count = 10_000;
    const random = randomSource(5);
    const times = Float64Array.from({ length: count }, () => Math.floor(random() * 1e15));
    expect(Array.from(orderByTime(times, count, (a, b) => a - b))).toEqual(reference(times, (a, b) => a - b));
  });

  it('keeps an already ordered input as it is', () => {
    const times = Float64Array.from([1, 2, 2, 3]);
    expect(Array.from(orderByTime(times, 4, (a, b) => a - b))).toEqual([0, 1, 2, 3]);
  });
});

describe('compareTradeIds', () => {
  it('compares digit strings as numbers', () => {
    expect(compareTradeIds('999', '1000')).toBeLessThan(0);
    expect(compareTradeIds('5316', '5285')).toBeGreaterThan(0);
    expect(compareTradeIds('42', '42')).toBe(0);
  });
});
