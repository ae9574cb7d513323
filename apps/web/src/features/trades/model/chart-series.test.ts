import { describe, expect, it } from 'vitest';
import type { Candle } from '@pipsense/contract';
import { candlesToBars, pricePrecision, toChartTime } from '../../../components/charts/candle-series';
import { allTradeMarkers, barTimeAt, excursionMarkers, tradeMarkers, tradePriceLines } from './chart-series';

const candle = (time: string, c: string): Candle => ({ time, volume: 5, complete: true, mid: { o: c, h: c, l: c, c } });
const candles = [
  candle('2025-10-02T08:10:00.000000000Z', '1.17250'),
  candle('2025-10-02T08:00:00.000000000Z', '1.17200'),
  candle('2025-10-02T08:05:00.000000000Z', '1.17230'),
  { time: '2025-10-02T08:15:00Z', volume: 1, complete: false, bid: { o: '1', h: '1', l: '1', c: '1' } },
];

describe('candlesToBars', () => {
  it('turns mid candles into bars, oldest first, on the local clock', () => {
    const bars = candlesToBars(candles);
    expect(bars.map((bar) => bar.close)).toEqual([1.172, 1.1723, 1.1725]);
    expect(bars[0]!.time).toBe(toChartTime(Date.parse('2025-10-02T08:00:00Z')));
    expect(bars[0]!.time - toChartTime(Date.parse('2025-10-02T08:00:00Z') - 300_000)).toBe(300);
  });

  it('keeps one bar per time', () => {
    const bars = candlesToBars([candle('2025-10-02T08:00:00Z', '1.1'), candle('2025-10-02T08:00:00Z', '1.2')]);
    expect(bars).toHaveLength(1);
  });
});

describe('markers', () => {
  const bars = candlesToBars(candles);

  it('puts the entry and exit on the bars they fall in', () => {
    expect(barTimeAt(bars, Date.parse('2025-10-02T08:07:59Z'))).toBe(bars[1]!.time);
    expect(barTimeAt(bars, Date.parse('2025-10-02T07:00:00Z'))).toBe(bars[0]!.time);
    expect(barTimeAt([], Date.now())).toBeUndefined();
  });

  it('marks a long with a buy below the bar and a sell to close', () => {
    const markers = tradeMarkers(
      {
        initialUnits: '1000',
        price: '1.17201',
        openTime: '2025-10-02T08:01:00.5Z',
        closeTime: '2025-10-02T08:11:00Z',
        averageClosePrice: '1.17260',
      },
      bars,
    );
    expect(markers).toEqual([
      { time: bars[0]!.time, position: 'belowBar', shape: 'arrowUp', color: '#2eb85c', text: 'Buy 1.17201' },
      { time: bars[2]!.time, position: 'aboveBar', shape: 'arrowDown', color: '#e55353', text: 'Close 1.17260' },
    ]);
  });

  it('marks a short with a sell above the bar and no exit while open', () => {
    const markers = tradeMarkers(
      {
        initialUnits: '-500',
        price: '1.17230',
        openTime: '2025-10-02T08:06:00Z',
        closeTime: null,
        averageClosePrice: null,
      },
      bars,
    );
    expect(markers).toEqual([
      { time: bars[1]!.time, position: 'aboveBar', shape: 'arrowDown', color: '#e55353', text: 'Sell 1.17230' },
    ]);
  });
});

describe('price lines and precision', () => {
  it('draws only the levels the trade has', () => {
    const lines = tradePriceLines({
      price: '147.566',
      averageClosePrice: null,
      stopLossPrice: '147.966',
      takeProfitPrice: null,
    });
    expect(lines.map((line) => [line.title, line.price, line.style])).toEqual([
      ['Entry', 147.566, 'dashed'],
      ['SL', 147.966, 'dotted'],
    ]);
  });

  it('reads the quote precision from the prices', () => {
    expect(pricePrecision(candles, '1.17201')).toBe(5);
    expect(pricePrecision([candle('2025-10-02T08:00:00Z', '147.566')], '147.5')).toBe(3);
  });
});

describe('MAE and MFE markers', () => {
  const life = [
    candle('2025-10-02T08:00:00Z', '1.1000'),
    { ...candle('2025-10-02T08:05:00Z', '1.1000'), mid: { o: '1.1000', h: '1.1010', l: '1.0950', c: '1.0990' } },
    { ...candle('2025-10-02T08:10:00Z', '1.1000'), mid: { o: '1.0990', h: '1.1080', l: '1.0980', c: '1.1070' } },
    { ...candle('2025-10-02T08:15:00Z', '1.1000'), mid: { o: '1.1070', h: '1.1200', l: '1.1060', c: '1.1100' } },
  ];
  const bars = candlesToBars(life);
  const base = {
    openTime: '2025-10-02T08:01:00Z',
    closeTime: '2025-10-02T08:11:00Z',
    mae: { price: '1.0950', pips: 50, r: 0.5 },
    mfe: { price: '1.1080', pips: 80, r: 0.8 },
  };

  it("marks a long's MAE under the lowest bar and its MFE over the highest, within the trade's life", () => {
    const markers = excursionMarkers({ ...base, initialUnits: '1000' }, bars);
    expect(markers).toEqual([
      { time: bars[1]!.time, position: 'belowBar', shape: 'circle', color: '#f9b115', text: 'MAE 1.0950' },
      // The 08:15 bar went higher, but after the trade had closed.
      { time: bars[2]!.time, position: 'aboveBar', shape: 'circle', color: '#3399ff', text: 'MFE 1.1080' },
    ]);
  });

  it("marks a short's MAE above and MFE below, and nothing while unknown", () => {
    const short = excursionMarkers(
      {
        ...base,
        initialUnits: '-1000',
        mae: { price: '1.1080', pips: 80, r: null },
        mfe: { price: '1.0950', pips: 50, r: null },
      },
      bars,
    );
    expect(short.map((m) => [m.text, m.position, m.time])).toEqual([
      ['MAE 1.1080', 'aboveBar', bars[2]!.time],
      ['MFE 1.0950', 'belowBar', bars[1]!.time],
    ]);
    expect(excursionMarkers({ ...base, initialUnits: '1', mae: null, mfe: null }, bars)).toEqual([]);
  });

  it('keeps every marker in time order', () => {
    const all = allTradeMarkers({ ...base, initialUnits: '1000', price: '1.1000', averageClosePrice: '1.1070' }, bars);
    // The exit and the MFE share the 08:10 bar: the entry and exit come first on a bar.
    expect(all.map((m) => m.text)).toEqual(['Buy 1.1000', 'MAE 1.0950', 'Close 1.1070', 'MFE 1.1080']);
  });
});
