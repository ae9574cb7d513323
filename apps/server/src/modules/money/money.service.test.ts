import { describe, expect, it } from 'vitest';
import { instantOf } from '../../domain/calendar';
import { minorUnitsOf } from '../../domain/money';
import { conversionOf, granularityFor } from './equity';
import { createMoneyService } from './money.service';
import type {
  CandleGranularity,
  CashFlow,
  EquitySample,
  MoneyCandle,
  MoneyPartialClose,
  MoneyTrade,
  TradeSource,
} from './ports';

/*
 * B(t), E(t) and time-weighted returns against books computed by hand (docs/money.md), through the service with
 * in-memory sources.
 */

const KEY = 'oanda:fxpractice:101-004-1-001';
const USER = 'u1';

const trade = (t: Partial<MoneyTrade> & Pick<MoneyTrade, 'tradeId'>): MoneyTrade => ({
  instrument: 'EUR_USD',
  price: '1.10000',
  units: '10000',
  state: 'CLOSED',
  openTime: '2026-03-02T08:00:00.000000000Z',
  closeTime: '2026-03-02T12:00:00.000000000Z',
  realizedPL: '0',
  financing: '0',
  ...t,
});
const flow = (time: string, amount: string, type: CashFlow['type'] = 'deposit'): CashFlow => ({
  accountKey: KEY,
  time,
  type,
  amount,
  currency: 'USD',
  comment: null,
});

/*
 * The book (USD account):
 *   00:00 deposit 10,000.00                                     B = 10,000.0000
 *   08:00 A opens: EUR_USD +10,000 at 1.10000
 *   09:00 B opens: USD_JPY −20,000 at 150.000 (JPY-quoted)
 *   10:00 deposit 1,000.00 (between the trades, both open)      B = 11,000.0000
 *   12:00 A closes: P/L 50.00, financing −0.50                  B = 11,049.5000
 *   14:00 B closes: P/L 66.8896 (10,000 JPY at 149.500)         B = 11,116.3896
 */
const BOOK: MoneyTrade[] = [
  trade({ tradeId: 'A', realizedPL: '50.0000', financing: '-0.5000' }),
  trade({
    tradeId: 'B',
    instrument: 'USD_JPY',
    price: '150.000',
    units: '-20000',
    openTime: '2026-03-02T09:00:00.000000000Z',
    closeTime: '2026-03-02T14:00:00.000000000Z',
    realizedPL: '66.8896',
  }),
];
const FLOWS = [flow('2026-03-02T00:00:00Z', '10000.00'), flow('2026-03-02T10:00:00Z', '1000.00')];

/*
 * Candles: one M1 candle ending on each hour (starting at hh:59 of the hour before).
 *   EUR_USD close at 11:00 1.10300, 13:00 1.10500; USD_JPY close at 11:00 149.800, 13:00 149.600.
 * E(11:00) = 11,000 + 10,000 × 0.003 + (−20,000 × −0.200 = 4,000 JPY) ÷ 149.800
 *          = 11,000 + 30.0000 + 26.7023 = 11,056.7023
 * E(13:00) = 11,049.5 + (A closed) (−20,000 × −0.400 = 8,000 JPY) ÷ 149.600 = 11,049.5 + 53.4759 = 11,102.9759
 */
const minuteBefore = (hour: number) => `2026-03-02T${String(hour - 1).padStart(2, '0')}:59:00.000000000Z`;
function candlesOf(instrument: string): MoneyCandle[] {
  const closes: Record<string, Record<number, string>> = {
    EUR_USD: { 9: '1.10100', 10: '1.10200', 11: '1.10300', 12: '1.10400', 13: '1.10500', 14: '1.10500', 15: '1.10500' },
    USD_JPY: { 9: '149.900', 10: '149.900', 11: '149.800', 12: '149.700', 13: '149.600', 14: '149.500', 15: '149.500' },
  };
  return Object.entries(closes[instrument] ?? {}).map(([hour, c]) => ({
    time: minuteBefore(Number(hour)),
    c,
  }));
}

/** What the read side answers for these trades: the closed ones' amounts by close time, the first open, all. */
function tradeSource(trades: MoneyTrade[]): TradeSource {
  const closed = trades
    .filter((t) => t.state === 'CLOSED' && t.closeTime !== null)
    .sort((a, b) => instantOf(a.closeTime!) - instantOf(b.closeTime!));
  return {
    closed: () =>
      Promise.resolve({
        closeAt: Float64Array.from(closed, (t) => instantOf(t.closeTime!)),
        realizedPL: Float64Array.from(closed, (t) => minorUnitsOf(t.realizedPL)),
        financing: Float64Array.from(closed, (t) => minorUnitsOf(t.financing)),
      }),
    firstOpenTime: () => Promise.resolve(trades.map((t) => t.openTime).sort()[0] ?? null),
    trades: () => Promise.resolve(trades),
  };
}

let version = 0;
function service(
  options: {
    trades?: MoneyTrade[];
    flows?: CashFlow[];
    candles?: boolean;
    samples?: EquitySample[];
    partials?: MoneyPartialClose[];
  } = {},
) {
  const reads: Array<{ instrument: string; granularity: CandleGranularity; priority: string }> = [];
  const money = createMoneyService({
    accounts: {
      named: (userId, accountId) =>
        Promise.resolve(
          userId === USER && (accountId === KEY || accountId === '101-004-1-001')
            ? [{ accountKey: KEY, currency: 'USD' }]
            : [],
        ),
    },
    trades: tradeSource(options.trades ?? BOOK),
    cashFlows: { cashFlows: () => Promise.resolve(options.flows ?? FLOWS) },
    partialCloses: { partialCloses: () => Promise.resolve(options.partials ?? []) },
    samples: { equitySamples: () => Promise.resolve(options.samples ?? []) },
    candles: {
      canRead: () => Promise.resolve(options.candles ?? true),
      read: (r) => {
        reads.push({ instrument: r.instrument, granularity: r.granularity, priority: r.priority });
        return Promise.resolve(candlesOf(r.instrument));
      },
    },
    versionOf: () => Promise.resolve(String(++version)),
    now: () => new Date('2026-03-03T00:00:00Z'),
  });
  return { money, reads };
}

describe('B(t)', () => {
  it('books closed trades with their financing and the cash flows, exactly', async () => {
    const { money } = service({ candles: false });
    const history = await money.balanceHistory(USER, KEY, { resolution: 'trade' });
    expect(history.currency).toBe('USD');
    expect(history.points.map((p) => [p.time, p.balance])).toEqual([
      ['2026-03-02T00:00:00.000Z', '10000.0000'],
      ['2026-03-02T10:00:00.000Z', '11000.0000'],
      ['2026-03-02T12:00:00.000Z', '11049.5000'],
      ['2026-03-02T14:00:00.000Z', '11116.3896'],
    ]);
    // Without a candle source, equity is unknown, and said so.
    expect(history.points.every((p) => p.equity === null && p.equitySource === null)).toBe(true);
    expect(history.equityComplete).toBe(false);
  });

  it('does not book a trade’s financing again when the cash flows list financing', async () => {
    const { money } = service({
      candles: false,
      flows: [...FLOWS, flow('2026-03-02T11:00:00Z', '-0.5000', 'financing')],
    });
    const history = await money.balanceHistory(USER, KEY, { resolution: 'trade' });
    expect(history.points.at(-1)!.balance).toBe('11116.3896');
  });

  /*
   * A reduced by 4,000 of its 10,000 units at 11:00 at 1.10300: P/L 4,000 × 0.003 = 12.0000, financing −0.2000,
   * B = 11,011.8000. A's close at 12:00 books the rest of its 50.0000 and −0.5000: 38.0000 − 0.3000 = 37.7000.
   * E(11:00) = 11,011.8 + A's 6,000 left × 0.003 (18.0000) + B's 26.7023 = 11,056.5023: the 4,000 closed count
   * once, in the balance.
   */
  const reduced: MoneyPartialClose = {
    tradeId: 'A',
    time: '2026-03-02T11:00:00.000000000Z',
    units: '-4000',
    realizedPL: '12.0000',
    financing: '-0.2000',
    tradeCloseTime: '2026-03-02T12:00:00.000000000Z',
  };

  it('books a partial close at its own time, and the rest of the trade at its close', async () => {
    const { money } = service({ partials: [reduced] });
    const history = await money.balanceHistory(USER, KEY, { resolution: 'trade' });
    expect(history.points.map((p) => [p.time, p.balance])).toEqual([
      ['2026-03-02T00:00:00.000Z', '10000.0000'],
      ['2026-03-02T10:00:00.000Z', '11000.0000'],
      ['2026-03-02T11:00:00.000Z', '11011.8000'],
      ['2026-03-02T12:00:00.000Z', '11049.5000'],
      ['2026-03-02T14:00:00.000Z', '11116.3896'],
    ]);
    const query = { resolution: 'hour' as const, from: '2026-03-02T08:00:00.000Z', to: '2026-03-02T15:00:00.000Z' };
    await money.balanceHistory(USER, KEY, query);
    await money.idle();
    const hourly = await money.balanceHistory(USER, KEY, query);
    expect(hourly.points.find((p) => p.time === '2026-03-02T11:00:00.000Z')).toMatchObject({
      balance: '11011.8000',
      equity: '11056.5023',
    });
    expect(hourly.points.at(-1)!.equity).toBe('11116.3896');
  });

  it('books a still open trade’s partial close, and nothing of the rest', async () => {
    const open = trade({ tradeId: 'A', state: 'OPEN', units: '6000', closeTime: null, realizedPL: '12.0000' });
    const { money } = service({ candles: false, trades: [open], partials: [{ ...reduced, tradeCloseTime: null }] });
    const history = await money.balanceHistory(USER, KEY, { resolution: 'trade' });
    expect(history.points.map((p) => [p.time, p.balance])).toEqual([
      ['2026-03-02T00:00:00.000Z', '10000.0000'],
      ['2026-03-02T10:00:00.000Z', '11000.0000'],
      ['2026-03-02T11:00:00.000Z', '11011.8000'],
    ]);
  });

  it('gives one point per hour, each the balance at the hour’s end', async () => {
    const { money } = service({ candles: false });
    const history = await money.balanceHistory(USER, KEY, {
      resolution: 'hour',
      from: '2026-03-02T09:30:00.000Z',
      to: '2026-03-02T13:00:00.000Z',
    });
    expect(history.points.map((p) => [p.time.slice(11, 16), p.balance])).toEqual([
      ['10:00', '11000.0000'],
      ['11:00', '11000.0000'],
      ['12:00', '11049.5000'],
      ['13:00', '11049.5000'],
    ]);
  });
});

describe('E(t) rebuilt from candles', () => {
  it('is partial while the rebuild runs, then the hand-computed equity, JPY P/L at the same candle’s USD_JPY', async () => {
    const { money, reads } = service();
    const query = { resolution: 'hour' as const, from: '2026-03-02T08:00:00.000Z', to: '2026-03-02T15:00:00.000Z' };
    const first = await money.balanceHistory(USER, KEY, query);
    expect(first.equityComplete).toBe(false);
    await money.idle();
    const history = await money.balanceHistory(USER, KEY, query);
    const at = (hhmm: string) => history.points.find((p) => p.time.slice(11, 16) === hhmm)!;
    expect(at('11:00')).toEqual({
      time: '2026-03-02T11:00:00.000Z',
      balance: '11000.0000',
      equity: '11056.7023',
      equitySource: 'candles',
    });
    expect(at('13:00').equity).toBe('11102.9759');
    // Flat after 14:00: equity is the balance.
    expect(at('15:00').equity).toBe('11116.3896');
    expect(history.equityComplete).toBe(true);
    // Spans under a day read M1, at the rebuild's priority; each instrument once.
    expect(reads).toEqual([
      { instrument: 'EUR_USD', granularity: 'M1', priority: 'rebuild' },
      { instrument: 'USD_JPY', granularity: 'M1', priority: 'rebuild' },
    ]);
  });

  it('takes the broker’s sample where one is at most an hour old, candles elsewhere', async () => {
    const sample = { accountKey: KEY, nav: '11060.1234', balance: '11000.0000', unrealizedPL: '60.1234' };
    const { money } = service({ samples: [{ ...sample, time: '2026-03-02T10:30:00.000000000Z' }] });
    const query = { resolution: 'hour' as const, from: '2026-03-02T08:00:00.000Z', to: '2026-03-02T15:00:00.000Z' };
    await money.balanceHistory(USER, KEY, query);
    await money.idle();
    const history = await money.balanceHistory(USER, KEY, query);
    const at = (hhmm: string) => history.points.find((p) => p.time.slice(11, 16) === hhmm)!;
    expect(at('11:00')).toMatchObject({ equity: '11060.1234', equitySource: 'sample' });
    // 12:00 is 90 minutes after the sample: rebuilt from candles.
    expect(at('12:00').equitySource).toBe('candles');
  });

  it('picks the candle granularity by span and the conversion pair by the market’s naming', () => {
    expect(granularityFor(23 * 3_600_000)).toBe('M1');
    expect(granularityFor(2 * 86_400_000)).toBe('M5');
    expect(granularityFor(31 * 86_400_000)).toBe('H1');
    expect(conversionOf('EUR_USD', 'USD')).toEqual({ kind: 'same' });
    expect(conversionOf('USD_JPY', 'USD')).toEqual({ kind: 'own' });
    // A EUR_GBP trade on a USD account converts its GBP P/L at GBP_USD.
    expect(conversionOf('EUR_GBP', 'USD')).toEqual({ kind: 'pair', instrument: 'GBP_USD', invert: false });
    expect(conversionOf('EUR_JPY', 'USD')).toEqual({ kind: 'pair', instrument: 'USD_JPY', invert: true });
    expect(conversionOf('US30', 'USD')).toBeNull();
  });
});

/*
 * TWR worked example (USD):
 *   Jan  1 deposit 10,000.00                          value 10,000.00
 *   Jan 10 trade +500.00                              value 10,500.00
 *   Jan 15 deposit 5,000.00   sub-period 1: 10,500 / 10,000 = 1.05; then 15,500.00
 *   Jan 20 trade −310.00                              value 15,190.00
 *   Jan 25 withdrawal 2,000   sub-period 2: 15,190 / 15,500 = 0.98; then 13,190.00
 *   Jan 30 trade +659.50      sub-period 3: 13,849.50 / 13,190 = 1.05
 *   January: 1.05 × 0.98 × 1.05 = 1.08045 → 8.0450 %
 *   Feb 10 trade +1,384.95: 15,234.45 / 13,849.50 = 1.10 → February 10.0000 %
 *   Total: 1.08045 × 1.10 = 1.188495 → 18.8495 %
 * The simple gain on money in (15,234.45 − 13,000 net deposits) / 10,000 would say 22.3445 %: deposits counted.
 */
describe('time-weighted returns', () => {
  const closedOn = (id: string, day: string, pl: string) =>
    trade({ tradeId: id, openTime: `${day}T08:00:00Z`, closeTime: `${day}T12:00:00Z`, realizedPL: pl });
  const trades = [
    closedOn('1', '2026-01-10', '500.00'),
    closedOn('2', '2026-01-20', '-310.00'),
    closedOn('3', '2026-01-30', '659.50'),
    closedOn('4', '2026-02-10', '1384.95'),
  ];
  const flows = [
    flow('2026-01-01T00:00:00Z', '10000.00'),
    flow('2026-01-15T00:00:00Z', '5000.00'),
    flow('2026-01-25T00:00:00Z', '-2000.00', 'withdrawal'),
  ];
  const query = { accountId: KEY, from: '2026-01-01T00:00:00.000Z', to: '2026-02-28T23:59:59.000Z' };

  it('chains the sub-periods between cash flows, per month and in total', async () => {
    const { money } = service({ trades, flows, candles: false });
    const result = await money.returns(USER, { ...query, period: 'month' });
    expect(result).toEqual({
      currency: 'USD',
      total: '18.8495',
      periods: [
        { start: '2026-01-01T00:00:00.000Z', return: '8.0450' },
        { start: '2026-02-01T00:00:00.000Z', return: '10.0000' },
      ],
    });
  });

  it('per day: the deposit and withdrawal days are 0, the trading days their own growth', async () => {
    const { money } = service({ trades, flows, candles: false });
    const result = await money.returns(USER, { ...query, period: 'day' });
    const byDay = Object.fromEntries(result.periods.map((p) => [p.start.slice(0, 10), p.return]));
    expect(result.periods).toHaveLength(59);
    expect(byDay['2026-01-10']).toBe('5.0000');
    expect(byDay['2026-01-15']).toBe('0.0000');
    expect(byDay['2026-01-20']).toBe('-2.0000');
    expect(byDay['2026-01-25']).toBe('0.0000');
    expect(byDay['2026-01-30']).toBe('5.0000');
    expect(byDay['2026-02-10']).toBe('10.0000');
    expect(result.total).toBe('18.8495');
  });

  it('per year, and from a later start the earlier bookings only set the starting value', async () => {
    const { money } = service({ trades, flows, candles: false });
    const year = await money.returns(USER, { ...query, period: 'year' });
    expect(year.periods).toEqual([{ start: '2026-01-01T00:00:00.000Z', return: '18.8495' }]);
    const february = await money.returns(USER, { ...query, from: '2026-02-01T00:00:00.000Z', period: 'year' });
    expect(february.total).toBe('10.0000');
  });
});

describe('accounts', () => {
  it('404 for an account the user does not have', async () => {
    const { money } = service();
    await expect(money.balanceHistory('someone-else', KEY, { resolution: 'trade' })).rejects.toMatchObject({
      status: 404,
    });
  });
});
