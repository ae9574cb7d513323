import { describe, expect, it } from 'vitest';
import type { Candle } from '@pipsense/contract';
import {
  candlesToBars,
  fitLevels,
  granularityLabel,
  isIntraday,
  pricePrecision,
  utcChartTime,
  type ChartPriceLine,
} from './candle-series';

const candle = (time: string, o: string, h: string, l: string, c: string): Candle => ({
  time,
  volume: 1,
  complete: true,
  mid: { o, h, l, c },
});

describe('candle chart model', () => {
  it("names granularities as the spec does ('5 Minutes', not '5-minute'), and the others alike", () => {
    expect(['M1', 'M5', 'M15', 'H1', 'D'].map(granularityLabel)).toEqual([
      '1 Minute',
      '5 Minutes',
      '15 Minutes',
      '1 Hour',
      '1 Day',
    ]);
    expect(['M30', 'H4', 'W'].map(granularityLabel)).toEqual(['30 Minutes', '4 Hours', '1 Week']);
    expect(granularityLabel('X9')).toBe('X9');
  });

  it('shows hours on the time axis only for intraday candles', () => {
    expect(['M1', 'H4'].map(isIntraday)).toEqual([true, true]);
    expect(['D', 'W', 'M'].map(isIntraday)).toEqual([false, false, false]);
  });

  it('puts bars on the clock it is given and keeps the later of two candles at one time', () => {
    const candles = [
      candle('2025-05-01T10:05:00Z', '1.1', '1.2', '1.0', '1.15'),
      candle('2025-05-01T10:00:00Z', '1.0', '1.1', '0.9', '1.05'),
      candle('2025-05-01T10:05:00Z', '1.1', '1.3', '1.0', '1.25'),
    ];
    const bars = candlesToBars(candles, utcChartTime);
    expect(bars.map((bar) => [bar.time, bar.close])).toEqual([
      [Date.parse('2025-05-01T10:00:00Z') / 1000, 1.05],
      [Date.parse('2025-05-01T10:05:00Z') / 1000, 1.25],
    ]);
  });

  it('reads the quote precision from every price, at least 1 and at most 8 decimals', () => {
    expect(pricePrecision([candle('2025-05-01T10:00:00Z', '150.1', '150.125', '150.0', '150.12')])).toBe(3);
    expect(pricePrecision([], '38000')).toBe(1);
    expect(pricePrecision([], '1.1234567891')).toBe(8);
  });
});

describe('fitLevels', () => {
  const bars = [
    { time: 1, open: 1.1, high: 1.105, low: 1.098, close: 1.102 },
    { time: 2, open: 1.102, high: 1.107, low: 1.1, close: 1.106 },
  ];
  const line = (title: string, price: number): ChartPriceLine => ({ title, price, color: '#000', style: 'dotted' });

  it('draws the levels within the candles and names the others at the edge they lie past', () => {
    const fitted = fitLevels(bars, [line('Entry', 1.1), line('SL', 1.095), line('TP', 1.12), line('Exit', 1.107)], 5);
    expect(fitted.lines.map((l) => l.title)).toEqual(['Entry', 'Exit']);
    expect(fitted.edges.map((e) => [e.edge, e.text])).toEqual([
      ['bottom', 'SL 1.09500 ↓'],
      ['top', 'TP 1.12000 ↑'],
    ]);
  });

  it('has nothing to place without candles', () => {
    expect(fitLevels([], [line('SL', 1)], 5)).toEqual({ lines: [], edges: [] });
  });
});
