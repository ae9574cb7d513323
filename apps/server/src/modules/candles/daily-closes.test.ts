import { describe, expect, it } from 'vitest';
import type { Candle } from './candle-store';
import { dailyClosesFor } from './daily-closes';

/** Daily candles as OANDA aligns them (17:00 New York = 21:00 UTC in summer): each starts the evening before. */
const candle = (start: string, c: string, complete = true): Candle => ({
  time: start,
  o: c,
  h: c,
  l: c,
  c,
  volume: 1,
  complete,
});
const WEEK = [
  candle('2025-06-08T21:00:00.000000000Z', '1.1000'), // ends Mon 9th 21:00
  candle('2025-06-09T21:00:00.000000000Z', '1.1010'), // ends Tue 10th
  candle('2025-06-10T21:00:00.000000000Z', '1.1020'), // ends Wed 11th
  candle('2025-06-11T21:00:00.000000000Z', '1.1030'), // ends Thu 12th
  candle('2025-06-12T21:00:00.000000000Z', '1.1040'), // ends Fri 13th 21:00
  candle('2025-06-15T21:00:00.000000000Z', '1.1050', false), // still forming
];
const NOW = () => new Date('2025-06-16T12:00:00Z');

function store(answer: (instrument: string) => Candle[] | null | Error) {
  const reads: string[] = [];
  return {
    reads,
    readForUser: (_: string, request: { instrument: string; granularity: string; priority: string }) => {
      reads.push(`${request.instrument} ${request.granularity} ${request.priority}`);
      const got = answer(request.instrument);
      return got instanceof Error ? Promise.reject(got) : Promise.resolve(got);
    },
  };
}

describe('daily closes for currency conversion', () => {
  it("takes the close of the last complete candle ended by the day's end; a weekend day takes Friday's", async () => {
    const s = store(() => WEEK);
    const closes = dailyClosesFor(s, 'u1', NOW);
    expect(await closes.close('EUR_USD', '2025-06-10')).toBe('1.1010');
    expect(await closes.close('EUR_USD', '2025-06-13')).toBe('1.1040');
    expect(await closes.close('EUR_USD', '2025-06-14')).toBe('1.1040');
    expect(await closes.close('EUR_USD', '2025-06-15')).toBe('1.1040');
    // The forming candle is never a rate; before the first candle nothing is known.
    expect(await closes.close('EUR_USD', '2025-06-16')).toBe('1.1040');
    expect(await closes.close('EUR_USD', '2025-06-08')).toBeNull();
    // One read per pair, at screen priority, of daily candles.
    expect(s.reads).toEqual(['EUR_USD D interactive']);
  });

  it('leaves the rate unknown for a pair OANDA does not list, a failed read or a user without OANDA', async () => {
    const logged: unknown[] = [];
    const closes = dailyClosesFor(
      store((instrument) => (instrument === 'JPY_USD' ? new Error('Invalid value specified for instrument') : null)),
      'u1',
      NOW,
      (err) => logged.push(err),
    );
    expect(await closes.close('JPY_USD', '2025-06-10')).toBeNull();
    expect(await closes.close('JPY_USD', '2025-06-11')).toBeNull();
    expect(await closes.close('USD_JPY', '2025-06-10')).toBeNull();
    expect(logged).toHaveLength(1);
  });
});
