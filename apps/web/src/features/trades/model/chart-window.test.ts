import { describe, expect, it } from 'vitest';
import { chartWindow } from './chart-window';

const NOW = Date.parse('2025-10-03T14:30:00Z');
const minutes = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000;

describe('chartWindow', () => {
  it('draws a short trade on one-minute candles with context either side', () => {
    const span = chartWindow(
      { instrument: 'EUR_USD', openTime: '2025-10-02T08:15:03.123456789Z', closeTime: '2025-10-02T08:20:00Z' },
      NOW,
    );
    expect(span.granularity).toBe('M1');
    expect(span.instrument).toBe('EUR_USD');
    // At least 24 candles before the entry and after the exit.
    expect(minutes(span.from, '2025-10-02T08:15:03.123Z')).toBeGreaterThanOrEqual(24);
    expect(minutes('2025-10-02T08:20:00Z', span.to)).toBeGreaterThanOrEqual(24);
  });

  it('picks coarser candles for longer trades, keeping at most 320 of them', () => {
    const cases: [string, string, string][] = [
      ['2025-10-01T08:00:00Z', '2025-10-02T08:00:00Z', 'M15'],
      ['2025-09-01T00:00:00Z', '2025-09-08T00:00:00Z', 'H1'],
      ['2025-06-01T00:00:00Z', '2025-09-01T00:00:00Z', 'D'],
      ['2022-01-01T00:00:00Z', '2025-01-01T00:00:00Z', 'W'],
    ];
    const seconds: Record<string, number> = { M15: 900, H1: 3600, D: 86400, W: 604800 };
    for (const [openTime, closeTime, granularity] of cases) {
      const span = chartWindow({ instrument: 'USD_JPY', openTime, closeTime }, NOW);
      expect(span.granularity).toBe(granularity);
      const candles = (Date.parse(span.to) - Date.parse(span.from)) / 1000 / seconds[granularity]!;
      expect(candles).toBeLessThanOrEqual(320);
      expect(Date.parse(span.from)).toBeLessThan(Date.parse(openTime));
      expect(Date.parse(span.to)).toBeGreaterThan(Date.parse(closeTime));
    }
  });

  it('runs an open trade up to now and never asks for the future', () => {
    const span = chartWindow({ instrument: 'GBP_USD', openTime: '2025-10-03T13:58:35Z', closeTime: null }, NOW);
    expect(span.granularity).toBe('M1');
    expect(Date.parse(span.to)).toBe(NOW);
    expect(Date.parse(span.from)).toBeLessThan(Date.parse('2025-10-03T13:58:35Z'));
  });

  it('keeps a closed trade that ended moments ago within now', () => {
    const span = chartWindow(
      { instrument: 'GBP_USD', openTime: '2025-10-03T14:00:00Z', closeTime: '2025-10-03T14:29:30Z' },
      NOW,
    );
    expect(Date.parse(span.to)).toBeLessThanOrEqual(NOW);
  });
});
