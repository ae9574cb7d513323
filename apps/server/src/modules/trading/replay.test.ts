import { describe, expect, it } from 'vitest';
import {
  defaultGranularity,
  pipValueAtRate,
  pipValueOf,
  replayOf,
  replayWindow,
  riskAmountOf,
  type ReplayTransaction,
} from './replay';
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

describe("a trailing stop's moves from the candles", () => {
  const candle = (time: string, h: string, l: string) => ({ time, o: l, h, l, c: h, volume: 1, complete: true });
  const tsl = (num: number, time: string, distance: string) => ({
    transaction_num: num,
    type: 'TRAILING_STOP_LOSS_ORDER',
    time,
    trade_id: '1',
    price: null,
    distance,
  });
  const events = (row: TradeRow, candles: ReturnType<typeof candle>[], transactions: ReplayTransaction[], g = 'M1') =>
    replayOf({
      trade: row,
      granularity: g as 'M1' | 'M5',
      candles,
      before: 5,
      transactions,
      accountCurrency: 'USD',
    }).events.map((e) => [e.time.slice(11, 19), e.kind, e.price, e.fromCandles ?? false]);

  it('a long: the highest high − distance since it was set, listed per pip, within its span', () => {
    const long = trade({
      instrument: 'EUR_USD',
      initial_units: '10000',
      price: '1.10000',
      open_time: '2026-11-24T09:00:30.000Z',
      close_time: '2026-11-24T09:06:20.000Z',
      average_close_price: '1.09960',
    });
    const candles = [
      // Starts before the order: its high may be from before it was set.
      candle('2026-11-24T09:00:00.000Z', '1.10050', '1.09990'),
      // 1.10040 − 0.00100 = 1.09940: 4 pips up from 1.09900, listed.
      candle('2026-11-24T09:01:00.000Z', '1.10040', '1.09980'),
      // 1.09945: half a pip from the last listed, not listed.
      candle('2026-11-24T09:02:00.000Z', '1.10045', '1.09990'),
      // 1.09920: below the level, which stays at 1.09945.
      candle('2026-11-24T09:03:00.000Z', '1.10020', '1.09970'),
      // 1.09960: 2 pips from 1.09940, listed.
      candle('2026-11-24T09:04:00.000Z', '1.10060', '1.10000'),
      candle('2026-11-24T09:05:00.000Z', '1.10055', '1.09965'),
      // Holds the exit at 09:06:20: its high may be from after it.
      candle('2026-11-24T09:06:00.000Z', '1.10200', '1.09950'),
    ];
    expect(events(long, candles, [tsl(11, '2026-11-24T09:00:30.000Z', '0.00100')])).toEqual([
      ['09:00:30', 'entry', '1.10000', false],
      ['09:00:30', 'stop_set', '1.09900', false],
      ['09:01:00', 'stop_moved', '1.09940', true],
      ['09:04:00', 'stop_moved', '1.09960', true],
      ['09:06:20', 'exit', '1.09960', false],
    ]);
    // Cancelled at 09:03:30 without a replacement: nothing from the candles after it.
    const cancel = {
      ...tsl(12, '2026-11-24T09:03:30.000Z', '0'),
      type: 'ORDER_CANCEL',
      distance: null,
      order_id: '11',
    };
    expect(events(long, candles, [tsl(11, '2026-11-24T09:00:30.000Z', '0.00100'), cancel])).toEqual([
      ['09:00:30', 'entry', '1.10000', false],
      ['09:00:30', 'stop_set', '1.09900', false],
      ['09:01:00', 'stop_moved', '1.09940', true],
      ['09:06:20', 'exit', '1.09960', false],
    ]);
  });

  it('one added after the entry: from the last price the candles show by then, not from the entry', () => {
    const long = trade({
      instrument: 'EUR_USD',
      initial_units: '10000',
      price: '1.10000',
      open_time: '2026-11-24T09:00:30.000Z',
      close_time: '2026-11-24T09:06:20.000Z',
      average_close_price: '1.10160',
    });
    const at = (time: string, o: string, h: string, l: string, c: string) => ({ ...candle(time, h, l), o, c });
    const candles = [
      at('2026-11-24T09:00:00.000Z', '1.09990', '1.10050', '1.09980', '1.10040'),
      at('2026-11-24T09:01:00.000Z', '1.10040', '1.10200', '1.10000', '1.10150'),
      // The best price before the order: its high − distance (1.10200) is not where OANDA sets the order.
      at('2026-11-24T09:02:00.000Z', '1.10150', '1.10300', '1.10140', '1.10250'),
      // Holds the order at 09:03:30: its open, 1.10240, is the last price known before it; 1.10140 set.
      at('2026-11-24T09:03:00.000Z', '1.10240', '1.10280', '1.10200', '1.10210'),
      // 1.10260 − 0.00100 = 1.10160: 2 pips up, listed.
      at('2026-11-24T09:04:00.000Z', '1.10210', '1.10260', '1.10190', '1.10200'),
      // 1.10100: below the level, which stays.
      at('2026-11-24T09:05:00.000Z', '1.10200', '1.10200', '1.10150', '1.10170'),
      at('2026-11-24T09:06:00.000Z', '1.10170', '1.10400', '1.10150', '1.10160'),
    ];
    const stop = {
      transaction_num: 10,
      type: 'STOP_LOSS_ORDER',
      time: '2026-11-24T09:00:30.000Z',
      trade_id: '1',
      price: '1.09800',
      distance: null,
    };
    expect(events(long, candles, [stop, tsl(11, '2026-11-24T09:03:30.000Z', '0.00100')])).toEqual([
      ['09:00:30', 'entry', '1.10000', false],
      ['09:00:30', 'stop_set', '1.09800', false],
      ['09:03:30', 'stop_moved', '1.10140', false],
      ['09:04:00', 'stop_moved', '1.10160', true],
      ['09:06:20', 'exit', '1.10160', false],
    ]);
    // Set on a candle's end: that candle's close (09:02's, 1.10250), not the next one's open.
    expect(events(long, candles, [tsl(11, '2026-11-24T09:03:00.000Z', '0.00100')])[1]).toEqual([
      '09:03:00',
      'stop_set',
      '1.10150',
      false,
    ]);
    // Within the entry's candle: no candle price comes after the entry, so from the entry.
    expect(events(long, candles, [tsl(11, '2026-11-24T09:00:45.000Z', '0.00100')])[1]).toEqual([
      '09:00:45',
      'stop_set',
      '1.09900',
      false,
    ]);
  });

  it('a short: the lowest low + distance, until a new stop order replaces it', () => {
    const short = trade({
      open_time: '2026-11-24T10:00:00.000Z',
      close_time: '2026-11-24T10:40:00.000Z',
      average_close_price: '150.050',
    });
    const candles = [
      // 149.950 + 0.200 = 150.150: 5 pips down from 150.200.
      candle('2026-11-24T10:00:00.000Z', '150.050', '149.950'),
      // 150.195: above the level, which stays.
      candle('2026-11-24T10:05:00.000Z', '150.100', '149.995'),
      // 150.100: 5 pips down again.
      candle('2026-11-24T10:10:00.000Z', '150.000', '149.900'),
      // Holds the replacement at 10:16: not counted.
      candle('2026-11-24T10:15:00.000Z', '150.000', '149.000'),
      candle('2026-11-24T10:20:00.000Z', '150.000', '148.000'),
    ];
    const replacement = {
      transaction_num: 20,
      type: 'STOP_LOSS_ORDER',
      time: '2026-11-24T10:16:00.000Z',
      trade_id: '1',
      price: '150.050',
      distance: null,
    };
    expect(events(short, candles, [tsl(11, '2026-11-24T10:00:00.000Z', '0.200'), replacement], 'M5')).toEqual([
      ['10:00:00', 'entry', '150.000', false],
      ['10:00:00', 'stop_set', '150.200', false],
      ['10:00:00', 'stop_moved', '150.150', true],
      ['10:10:00', 'stop_moved', '150.100', true],
      ['10:16:00', 'stop_moved', '150.050', false],
      ['10:40:00', 'exit', '150.050', false],
    ]);
  });
});
