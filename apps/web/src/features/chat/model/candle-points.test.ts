import { describe, expect, it } from 'vitest';
import type { Candle } from '@pipsense/contract';
import { candleSeries, summarizeCandles } from './candle-points';

const candle = (time: string, o: string, h: string, l: string, c: string, mid = true): Candle => ({
  time,
  volume: 1,
  complete: true,
  ...(mid ? { mid: { o, h, l, c } } : { bid: { o, h, l, c } }),
});

describe('candleSeries', () => {
  it('orders by time, keeps one point per time and skips candles without mid prices', () => {
    const { points, precision } = candleSeries([
      candle('2025-05-01T10:05:00.000000000Z', '150.120', '150.200', '150.100', '150.150'),
      candle('2025-05-01T10:00:00.000000000Z', '150.000', '150.130', '149.990', '150.120'),
      candle('2025-05-01T10:05:00.000000000Z', '150.120', '150.210', '150.100', '150.160'),
      candle('2025-05-01T10:10:00.000000000Z', '1', '1', '1', '1', false),
      candle('not a time', '1', '1', '1', '1'),
    ]);
    expect(precision).toBe(3);
    expect(points.map((p) => p.time)).toEqual([1746093600, 1746093900]);
    expect(points[1]).toEqual({ time: 1746093900, open: 150.12, high: 150.21, low: 150.1, close: 150.16 });
  });
});

describe('summarizeCandles', () => {
  it('gives last close, signed change, high and low at the pair precision', () => {
    const series = candleSeries([
      candle('2025-05-01T10:00:00Z', '1.08000', '1.08100', '1.07950', '1.08050'),
      candle('2025-05-01T10:05:00Z', '1.08050', '1.08300', '1.08000', '1.08270'),
    ]);
    expect(summarizeCandles(series)).toEqual({
      lastClose: '1.08270',
      change: '+0.00270',
      changePercent: '+0.25%',
      high: '1.08300',
      low: '1.07950',
    });
  });

  it('shows a change that rounds to zero without a sign, and nothing for no candles', () => {
    const flat = candleSeries([candle('2025-05-01T10:00:00Z', '1.08000', '1.08000', '1.08000', '1.079999')]);
    expect(summarizeCandles({ ...flat, precision: 5 })?.change).toBe('0.00000');
    expect(summarizeCandles({ points: [], precision: 5 })).toBeNull();
  });
});
