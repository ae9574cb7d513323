import { describe, expect, it } from 'vitest';
import { toLocalTimes } from './local-times';

describe('toLocalTimes', () => {
  it("shifts each point by the zone's offset at that instant", () => {
    const twoHoursEast = () => 7200;
    expect(
      toLocalTimes(
        [
          { time: 1000, value: 1 },
          { time: 5000, value: 2 },
        ],
        twoHoursEast,
      ),
    ).toEqual([
      { time: 8200, value: 1 },
      { time: 12200, value: 2 },
    ]);
  });

  it('keeps times strictly ascending across a DST fall-back that would fold them', () => {
    // Clocks go back an hour between the two points: 10,000 + 7,200 would land before 9,000 + 7,200 + … .
    const offset = (time: number) => (time < 9500 ? 7200 : 3600);
    const shifted = toLocalTimes(
      [
        { time: 9000, value: 1 },
        { time: 10_000, value: 2 },
        { time: 20_000, value: 3 },
      ],
      offset,
    );
    expect(shifted.map((p) => p.time)).toEqual([16_200, 16_201, 23_600]);
    expect(shifted.map((p) => p.value)).toEqual([1, 2, 3]);
  });
});
