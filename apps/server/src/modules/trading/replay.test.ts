import { describe, expect, it } from 'vitest';
import { defaultGranularity, pipValueOf, replayWindow, riskAmountOf } from './replay';
import type { TradeRow } from './trade.repository';

const trade = (over: Partial<TradeRow>): TradeRow =>
  ({
    trade_id: '1',
    instrument: 'USD_JPY',
    initial_units: '-10000',
    price: '150.000',
    average_close_price: '149.500',
    realized_pl: '33.44',
    state: 'CLOSED',
    initial_stop_loss_price: '150.250',
    platform: 'oanda',
    ...over,
  }) as TradeRow;

const H = 3_600_000;

describe('replay', () => {
  it('picks the finest granularity keeping the trade within 500 candles', () => {
    expect(defaultGranularity(0, 2 * H)).toBe('M1');
    expect(defaultGranularity(0, 9 * H)).toBe('M5');
    expect(defaultGranularity(0, 100 * H)).toBe('M15');
    expect(defaultGranularity(0, 30 * 24 * H)).toBe('H4');
    expect(defaultGranularity(0, 400 * 24 * H)).toBe('H4');
  });

  it('a pip in the account currency: exact for the quote currency, else from the realized P/L, else unknown', () => {
    expect(pipValueOf(trade({ instrument: 'EUR_USD', initial_units: '25000' }), 'USD')).toBe('2.5');
    // 50 pips in favour realized 33.44 USD: 0.6688 USD a pip.
    const jpy = trade({});
    expect(pipValueOf(jpy, 'USD')).toBe('0.6688');
    expect(riskAmountOf(jpy, '0.6688')).toBe('16.72');
    expect(pipValueOf(trade({ state: 'OPEN', average_close_price: null }), 'USD')).toBeNull();
    expect(pipValueOf(trade({ average_close_price: '150.000' }), 'USD')).toBeNull();
    expect(riskAmountOf(trade({ initial_stop_loss_price: null }), '1')).toBeNull();
  });

  it('keeps `before` complete candles ahead of the entry', () => {
    const candle = (m: number, complete = true) => ({
      time: new Date(m * 60_000).toISOString(),
      o: '1',
      h: '1',
      l: '1',
      c: '1',
      volume: 1,
      complete,
    });
    const list = [...Array.from({ length: 10 }, (_, i) => candle(i)), candle(10, false)];
    expect(replayWindow(list, 6 * 60_000 + 30_000, 3)).toMatchObject({ entryIndex: 3 });
    expect(replayWindow(list, 6 * 60_000, 3).candles).toHaveLength(7);
    expect(replayWindow(list, 1 * 60_000, 50)).toMatchObject({ entryIndex: 1 });
  });
});
