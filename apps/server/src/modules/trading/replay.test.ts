import { describe, expect, it } from 'vitest';
import { defaultGranularity, pipValueAtRate, pipValueOf, replayOf, replayWindow, riskAmountOf } from './replay';
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

  it("an open trade in another currency: its pip value at the quote currency's daily rate", () => {
    const open = trade({ state: 'OPEN', average_close_price: null, realized_pl: '0', initial_units: '-2000' });
    // 0.01 × 2,000 units × 0.0066 USD a yen = 0.132 USD a pip.
    expect(pipValueAtRate(open, '0.0066')).toBe('0.132');
    // A rate from an inverse close (1 ÷ 149.873, 20 decimals): 0.01 × 10,000 × 0.00667231589… = 0.667232, 6 decimals.
    expect(pipValueAtRate(trade({ initial_units: '10000' }), '0.00667231589412369139')).toBe('0.667232');
    expect(pipValueAtRate(open, 'n/a')).toBeNull();
    const replay = (row: TradeRow, quoteRate?: string | null) =>
      replayOf({
        trade: { ...row, open_time: '2026-11-24T09:00:00.000Z', close_time: null },
        granularity: 'M1',
        candles: [],
        before: 0,
        transactions: [],
        accountCurrency: 'USD',
        quoteRate,
      });
    // The stop 25 pips away risks 25 × 0.132 = 3.30 USD.
    expect(replay(open, '0.0066')).toMatchObject({ pipValue: '0.132', riskAmount: '3.30', currency: 'USD' });
    expect(replay(open)).toMatchObject({ pipValue: null, riskAmount: null });
    // What the trade tells wins over a rate: the closed one's realized P/L.
    expect(replay(trade({}), '0.0066').pipValue).toBe('0.6688');
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
