import { describe, expect, it } from 'vitest';
import { maeOf, mfeOf } from '../../domain/risk';
import { excursionPrices, granularityFor, priceComponentFor } from './excursions';

const T0 = Date.parse('2025-03-03T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString().replace('.000Z', '.000000000Z');

/** Five M1 candles 09:59–10:03; the trade lives 10:00:30 → 10:02:30. */
const candles = [
  { time: at(-1), high: '1.10300', low: '1.09000' }, // ends 10:00:00, before the open: left out
  { time: at(0), high: '1.10120', low: '1.09950' },
  { time: at(1), high: '1.10180', low: '1.09900' },
  { time: at(2), high: '1.10160', low: '1.09980' },
  { time: at(3), high: '1.10400', low: '1.09700' }, // starts 10:03:00, after the close: left out
];
const life = { openMs: T0 + 30_000, closeMs: T0 + 150_000, candleSeconds: 60 };

describe('excursion prices from candles', () => {
  it('long (bid candles): MAE the lowest low, MFE the highest high, inside the trade’s life', () => {
    const prices = excursionPrices({ ...life, initialUnits: '10000', exitPrice: '1.10050' }, candles);
    expect(prices).toEqual({ maePrice: '1.09900', mfePrice: '1.10180' });
    // Entry 1.10000, initial stop 1.09800 (20 pips = 1R): MAE 10 pips = −0.5R, MFE 18 pips = 0.9R.
    const trade = {
      instrument: 'EUR_USD',
      initialUnits: '10000',
      price: '1.10000',
      averageClosePrice: '1.10050',
      initialStopLossPrice: '1.09800',
      ...prices,
    };
    expect(maeOf(trade)).toEqual({ price: '1.09900', pips: 10, r: -0.5 });
    expect(mfeOf(trade)).toEqual({ price: '1.10180', pips: 18, r: 0.9 });
  });

  it('short (ask candles): MAE the highest high, MFE the lowest low; the exit counts as reached', () => {
    const prices = excursionPrices({ ...life, initialUnits: '-5000', exitPrice: '1.09850' }, candles);
    // The exit at 1.09850 is below every low of the window: it is the best price the short reached.
    expect(prices).toEqual({ maePrice: '1.10180', mfePrice: '1.09850' });
    const trade = {
      instrument: 'EUR_USD',
      initialUnits: '-5000',
      price: '1.10000',
      averageClosePrice: '1.09850',
      initialStopLossPrice: '1.10300',
      ...prices,
    };
    // 1R = 30 pips: MAE 18 pips = −0.6R, MFE 15 pips = 0.5R.
    expect(maeOf(trade)).toEqual({ price: '1.10180', pips: 18, r: -0.6 });
    expect(mfeOf(trade)).toEqual({ price: '1.09850', pips: 15, r: 0.5 });
  });

  it('is null without a candle in the trade’s life', () => {
    expect(excursionPrices({ ...life, initialUnits: '1', exitPrice: '1.1' }, [candles[0]!, candles[4]!])).toBeNull();
  });

  it('reads the closing side and picks the finest granularity one request of ≤ 5000 candles covers', () => {
    expect(priceComponentFor('1000')).toBe('B');
    expect(priceComponentFor('-1000')).toBe('A');
    const hour = 3_600_000;
    expect(granularityFor(0, 2 * hour).granularity).toBe('M1');
    expect(granularityFor(0, 83 * hour).granularity).toBe('M1'); // 4980 + 2 candles
    expect(granularityFor(0, 84 * hour).granularity).toBe('M5');
    expect(granularityFor(0, 30 * 24 * hour).granularity).toBe('M15');
    expect(granularityFor(0, 400 * 24 * hour).granularity).toBe('H4');
    expect(granularityFor(0, 3000 * 24 * hour).granularity).toBe('D');
  });
});
