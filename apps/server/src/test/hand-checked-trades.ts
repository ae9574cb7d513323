/**
 * A small history whose metrics are worked out by hand in compute-metrics.test.ts. Two USD
 * accounts, three instruments, long and short, wins, losses, two break-evens, four open trades
 * (one partially closed, one CLOSE_WHEN_TRADEABLE), financing on some trades.
 *
 * Closed trades in close order (UTC; Sept 2025 is summer time in London and New York):
 * SL is the stop-loss set on fill: the trade's initial stop (the R column: price move / |open − SL|).
 *   id  instr    units   open → close price   opened            closed            held  P/L   fin   SL   R
 *   101 EUR_USD  +10000  1.10000 → 1.10500   Mon 09-01 08:30   Mon 09-01 10:30   2h    +50   -0.50 yes   1.00 (0.005/0.005)
 *   102 USD_JPY  -20000  147.000 → 147.300   Mon 09-01 13:00   Mon 09-01 14:00   1h    -40    0    yes  -0.60 (-0.3/0.5)
 *   103 XAU_USD     +10  3400.00 → 3402.50   Tue 09-02 07:00   Tue 09-02 11:00   4h    +25    0    yes   0.25 (2.5/10)
 *   104 EUR_USD  -10000  1.10200 → 1.10200   Tue 09-02 13:30   Tue 09-02 14:00   30m     0    0    no
 *   105 EUR_USD  +20000  1.10000 → 1.09800   Wed 09-03 08:00   Wed 09-03 12:00   4h    -40   -1.00 yes  -1.00 (-0.002/0.002)
 *   106 USD_JPY  +10000  147.500 → 147.200   Wed 09-03 13:00   Thu 09-04 13:00   1d    -20   -1.50 no
 *   107 EUR_USD  +10000  1.10000 → 1.10300   Thu 09-04 08:00   Thu 09-04 15:00   7h    +30    0    yes   1.00 (0.003/0.003)
 *   108 XAU_USD     -10  3420.00 → 3415.00   Thu 09-04 14:00   Thu 09-04 16:00   2h    +50    0    yes   0.50 (5/10)
 *   109 EUR_USD  -10000  1.10500 → 1.10100   Fri 09-05 08:00   Fri 09-05 10:00   2h    +40    0    yes   1.00 (0.004/0.004)
 *   110 USD_JPY  -10000  148.000 → 148.000   Fri 09-05 13:00   Fri 09-05 13:15   15m     0    0    no
 *   111 XAU_USD      +5  3430.00 → 3410.00   Mon 09-08 07:30   Mon 09-08 15:30   8h   -100   -2.00 no   (A2)
 *   112 EUR_USD  +10000  1.10000 → 1.10600   Tue 09-09 08:00   Wed 09-10 08:00   1d    +60   -0.80 yes  (A2)  1.20 (0.006/0.005)
 * Open trades:
 *   113 EUR_USD  +10000  Wed 09-10 09:00  OPEN, SL, unrealized +12, fin -0.20                    (A1)
 *   114 USD_JPY  -15000  Thu 09-11 01:00  OPEN, 5000 left after a partial close (+15), no SL,
 *                                          unrealized -3, fin -0.30                              (A1)
 *   115 XAU_USD      +5  Thu 09-11 14:00  OPEN, no SL, unrealized -8                             (A2)
 *   116 EUR_USD  -10000  Fri 09-12 09:00  CLOSE_WHEN_TRADEABLE, trailing stop 0.0020, unrealized +2 (A2)
 *
 * Accounts were funded with 5,000.00 each and nothing since, so
 *   A1 balance = 5000 + (50-40+25+0-40-20+30+50+40+0 + 15) + (-0.5-1-1.5-0.2-0.3) = 5000 + 110 - 3.5 = 5106.50
 *   A2 balance = 5000 + (-100+60) + (-2-0.8) = 4957.20
 */
import type { EngineAccount, EngineTrade } from '../modules/analytics/engine/types';
import { rMultipleOf } from '../domain/risk';

export const FIXTURE_NOW = new Date('2025-09-12T12:00:00Z');

interface Row {
  id: string;
  account?: string;
  instrument: string;
  units: number;
  open: number;
  close?: number;
  opened: string;
  closed?: string;
  pl?: number;
  fin?: number;
  sl?: number;
  state?: EngineTrade['state'];
  currentUnits?: number;
  unrealized?: number;
  trailing?: number;
}

function trade(row: Row): EngineTrade {
  const isClosed = row.closed !== undefined;
  return {
    accountId: row.account ?? 'A1',
    tradeId: row.id,
    instrument: row.instrument,
    units: row.units,
    currentUnits: row.currentUnits ?? (isClosed ? 0 : row.units),
    openPrice: row.open,
    closePrice: row.close ?? null,
    openTime: Date.parse(`2025-${row.opened}:00Z`),
    closeTime: isClosed ? Date.parse(`2025-${row.closed}:00Z`) : null,
    state: row.state ?? (isClosed ? 'CLOSED' : 'OPEN'),
    realizedPL: row.pl ?? 0,
    unrealizedPL: row.unrealized ?? 0,
    financing: row.fin ?? 0,
    stopLossPrice: row.sl ?? null,
    takeProfitPrice: null,
    trailingStopDistance: row.trailing ?? null,
    // The stop-loss in the table was set on fill: it is also the trade's initial stop (METRICS.md, "Risk in R").
    initialStop: row.sl !== undefined,
    rMultiple: rMultipleOf({
      instrument: row.instrument,
      initialUnits: String(row.units),
      price: String(row.open),
      averageClosePrice: isClosed && row.close !== undefined ? String(row.close) : null,
      initialStopLossPrice: row.sl === undefined ? null : String(row.sl),
    }),
  };
}

export const FIXTURE_TRADES: EngineTrade[] = [
  trade({
    id: '101',
    instrument: 'EUR_USD',
    units: 10000,
    open: 1.1,
    close: 1.105,
    opened: '09-01T08:30',
    closed: '09-01T10:30',
    pl: 50,
    fin: -0.5,
    sl: 1.095,
  }),
  trade({
    id: '102',
    instrument: 'USD_JPY',
    units: -20000,
    open: 147.0,
    close: 147.3,
    opened: '09-01T13:00',
    closed: '09-01T14:00',
    pl: -40,
    sl: 147.5,
  }),
  trade({
    id: '103',
    instrument: 'XAU_USD',
    units: 10,
    open: 3400.0,
    close: 3402.5,
    opened: '09-02T07:00',
    closed: '09-02T11:00',
    pl: 25,
    sl: 3390,
  }),
  trade({
    id: '104',
    instrument: 'EUR_USD',
    units: -10000,
    open: 1.102,
    close: 1.102,
    opened: '09-02T13:30',
    closed: '09-02T14:00',
    pl: 0,
  }),
  trade({
    id: '105',
    instrument: 'EUR_USD',
    units: 20000,
    open: 1.1,
    close: 1.098,
    opened: '09-03T08:00',
    closed: '09-03T12:00',
    pl: -40,
    fin: -1.0,
    sl: 1.098,
  }),
  trade({
    id: '106',
    instrument: 'USD_JPY',
    units: 10000,
    open: 147.5,
    close: 147.2,
    opened: '09-03T13:00',
    closed: '09-04T13:00',
    pl: -20,
    fin: -1.5,
  }),
  trade({
    id: '107',
    instrument: 'EUR_USD',
    units: 10000,
    open: 1.1,
    close: 1.103,
    opened: '09-04T08:00',
    closed: '09-04T15:00',
    pl: 30,
    sl: 1.097,
  }),
  trade({
    id: '108',
    instrument: 'XAU_USD',
    units: -10,
    open: 3420.0,
    close: 3415.0,
    opened: '09-04T14:00',
    closed: '09-04T16:00',
    pl: 50,
    sl: 3430,
  }),
  trade({
    id: '109',
    instrument: 'EUR_USD',
    units: -10000,
    open: 1.105,
    close: 1.101,
    opened: '09-05T08:00',
    closed: '09-05T10:00',
    pl: 40,
    sl: 1.109,
  }),
  trade({
    id: '110',
    instrument: 'USD_JPY',
    units: -10000,
    open: 148.0,
    close: 148.0,
    opened: '09-05T13:00',
    closed: '09-05T13:15',
    pl: 0,
  }),
  trade({
    id: '111',
    account: 'A2',
    instrument: 'XAU_USD',
    units: 5,
    open: 3430.0,
    close: 3410.0,
    opened: '09-08T07:30',
    closed: '09-08T15:30',
    pl: -100,
    fin: -2.0,
  }),
  trade({
    id: '112',
    account: 'A2',
    instrument: 'EUR_USD',
    units: 10000,
    open: 1.1,
    close: 1.106,
    opened: '09-09T08:00',
    closed: '09-10T08:00',
    pl: 60,
    fin: -0.8,
    sl: 1.095,
  }),
  trade({
    id: '113',
    instrument: 'EUR_USD',
    units: 10000,
    open: 1.104,
    opened: '09-10T09:00',
    fin: -0.2,
    sl: 1.1,
    unrealized: 12,
  }),
  trade({
    id: '114',
    instrument: 'USD_JPY',
    units: -15000,
    currentUnits: -5000,
    open: 147.8,
    close: 147.7,
    opened: '09-11T01:00',
    pl: 15,
    fin: -0.3,
    unrealized: -3,
  }),
  trade({
    id: '115',
    account: 'A2',
    instrument: 'XAU_USD',
    units: 5,
    open: 3440.0,
    opened: '09-11T14:00',
    unrealized: -8,
  }),
  trade({
    id: '116',
    account: 'A2',
    instrument: 'EUR_USD',
    units: -10000,
    open: 1.108,
    opened: '09-12T09:00',
    state: 'CLOSE_WHEN_TRADEABLE',
    trailing: 0.002,
    unrealized: 2,
  }),
];

export const FIXTURE_ACCOUNTS: EngineAccount[] = [
  {
    accountId: 'A1',
    currency: 'USD',
    balance: 5106.5,
    nav: 5115.5,
    unrealizedPL: 9,
    marginUsed: 300,
    marginAvailable: 4815.5,
    positionValue: 15000,
    openTradeCount: 2,
    openPositionCount: 2,
  },
  {
    accountId: 'A2',
    currency: 'USD',
    balance: 4957.2,
    nav: 4951.2,
    unrealizedPL: -6,
    marginUsed: 203.34,
    marginAvailable: 4747.86,
    positionValue: 28000,
    openTradeCount: 2,
    openPositionCount: 2,
  },
];
