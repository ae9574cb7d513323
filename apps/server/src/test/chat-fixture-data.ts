import type { AccountItem, Candle, CandlesResult, Mode, TradeItem } from '@pipsense/contract';
import type { ChatData, CandleRequest, DataOrigin, TradesSnapshot } from '../modules/chat/tools/chat-data';
import { performanceFromSnapshot, tagsFromSnapshot, tradesFromSnapshot } from './chat-snapshot-answers';
import { EMPTY_JOURNAL, type JournalSnapshot } from '../modules/chat/tools/journal';

/** Friday 14 March 2025, 15:00 UTC: "today", "this week" (since Monday 10 March) and so on count from here. */
export const FIXTURE_NOW = new Date('2025-03-14T15:00:00.000Z');
const DEMO_ACCOUNT = '101-004-1111111-001';
const LIVE_ACCOUNT = '001-004-2222222-001';

/** The request context of the fixture's questions: demo mode, UTC, at FIXTURE_NOW. */
export const FIXTURE_CONTEXT = {
  userId: 'u1',
  mode: 'demo',
  instrument: 'USD_JPY',
  granularity: 'M5',
  timeZone: 'UTC',
  now: FIXTURE_NOW,
} as const;

interface TradeSpec {
  id: string;
  instrument: string;
  units: string;
  price: string;
  open: string;
  close?: string;
  pl: string;
  sl?: string;
  tp?: string;
  financing?: string;
}

function trade(mode: Mode, accountId: string, s: TradeSpec): TradeItem {
  const closed = s.close !== undefined;
  return {
    tradeId: s.id,
    accountId,
    mode,
    instrument: s.instrument,
    price: s.price,
    initialUnits: s.units,
    currentUnits: closed ? '0' : s.units,
    realizedPL: closed ? s.pl : '0.0000',
    unrealizedPL: closed ? null : s.pl,
    financing: s.financing ?? '0.0000',
    state: closed ? 'CLOSED' : 'OPEN',
    openTime: s.open,
    closeTime: s.close ?? null,
    averageClosePrice: closed ? s.price : null,
    stopLossPrice: s.sl ?? null,
    takeProfitPrice: s.tp ?? null,
    trailingStopDistance: null,
    updatedAt: '2025-03-14T14:30:00.000Z',
    createdAt: '2025-03-01T00:00:00.000Z',
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
  };
}

/** Demo trades: open ones, and closed ones today, yesterday, this week, last week, last month and earlier. */
export const DEMO_TRADES: TradeItem[] = [
  // Open
  {
    id: '501',
    instrument: 'EUR_USD',
    units: '10000',
    price: '1.08500',
    open: '2025-03-13T09:30:00.000Z',
    pl: '42.1500',
    sl: '1.08000',
    tp: '1.09500',
  },
  {
    id: '502',
    instrument: 'USD_JPY',
    units: '-5000',
    price: '148.250',
    open: '2025-03-14T08:15:00.000Z',
    pl: '-12.3400',
    sl: '149.000',
  },
  { id: '503', instrument: 'GBP_USD', units: '2000', price: '1.29410', open: '2025-03-10T11:00:00.000Z', pl: '3.2000' },
  // Closed today (14 March)
  {
    id: '480',
    instrument: 'EUR_USD',
    units: '10000',
    price: '1.08310',
    open: '2025-03-14T01:00:00.000Z',
    close: '2025-03-14T03:00:00.000Z',
    pl: '55.2500',
    sl: '1.07900',
  },
  {
    id: '481',
    instrument: 'GBP_USD',
    units: '-3000',
    price: '1.29800',
    open: '2025-03-14T02:00:00.000Z',
    close: '2025-03-14T06:00:00.000Z',
    pl: '120.7500',
    sl: '1.30200',
    tp: '1.29000',
  },
  {
    id: '482',
    instrument: 'USD_JPY',
    units: '4000',
    price: '147.900',
    open: '2025-03-14T05:00:00.000Z',
    close: '2025-03-14T09:00:00.000Z',
    pl: '-30.1000',
  },
  {
    id: '483',
    instrument: 'EUR_USD',
    units: '-8000',
    price: '1.08900',
    open: '2025-03-14T07:00:00.000Z',
    close: '2025-03-14T10:30:00.000Z',
    pl: '18.4000',
    tp: '1.08500',
  },
  {
    id: '484',
    instrument: 'USD_JPY',
    units: '6000',
    price: '148.010',
    open: '2025-03-14T09:00:00.000Z',
    close: '2025-03-14T12:45:00.000Z',
    pl: '75.0000',
    sl: '147.500',
  },
  // Break-even: neither a winner nor a loser.
  {
    id: '485',
    instrument: 'EUR_USD',
    units: '1000',
    price: '1.08800',
    open: '2025-03-14T11:00:00.000Z',
    close: '2025-03-14T11:30:00.000Z',
    pl: '0.0000',
  },
  // Closed yesterday and earlier this week
  {
    id: '470',
    instrument: 'EUR_USD',
    units: '5000',
    price: '1.08700',
    open: '2025-03-13T08:00:00.000Z',
    close: '2025-03-13T16:00:00.000Z',
    pl: '-64.5000',
    sl: '1.08550',
  },
  {
    id: '465',
    instrument: 'GBP_USD',
    units: '7000',
    price: '1.29100',
    open: '2025-03-12T10:00:00.000Z',
    close: '2025-03-12T13:00:00.000Z',
    pl: '-110.2500',
  },
  {
    id: '460',
    instrument: 'USD_JPY',
    units: '-2000',
    price: '147.600',
    open: '2025-03-10T06:00:00.000Z',
    close: '2025-03-11T06:00:00.000Z',
    pl: '-8.7500',
    sl: '148.000',
    tp: '146.900',
    financing: '-1.2500',
  },
  // Last week (3–9 March)
  {
    id: '440',
    instrument: 'EUR_USD',
    units: '10000',
    price: '1.07900',
    open: '2025-03-05T09:00:00.000Z',
    close: '2025-03-06T09:00:00.000Z',
    pl: '210.0000',
    sl: '1.07500',
    financing: '-2.1000',
  },
  {
    id: '441',
    instrument: 'GBP_USD',
    units: '-4000',
    price: '1.28500',
    open: '2025-03-07T12:00:00.000Z',
    close: '2025-03-07T18:00:00.000Z',
    pl: '-45.6000',
  },
  // Last month (February)
  {
    id: '400',
    instrument: 'EUR_USD',
    units: '10000',
    price: '1.04100',
    open: '2025-02-03T09:00:00.000Z',
    close: '2025-02-04T09:00:00.000Z',
    pl: '150.5000',
    sl: '1.03800',
  },
  {
    id: '401',
    instrument: 'USD_JPY',
    units: '3000',
    price: '152.100',
    open: '2025-02-10T09:00:00.000Z',
    close: '2025-02-10T15:00:00.000Z',
    pl: '-95.2000',
    sl: '151.700',
  },
  {
    id: '402',
    instrument: 'GBP_USD',
    units: '5000',
    price: '1.24500',
    open: '2025-02-18T09:00:00.000Z',
    close: '2025-02-19T09:00:00.000Z',
    pl: '60.1500',
    financing: '-0.7500',
  },
  {
    id: '403',
    instrument: 'EUR_USD',
    units: '-6000',
    price: '1.04800',
    open: '2025-02-26T09:00:00.000Z',
    close: '2025-02-27T09:00:00.000Z',
    pl: '33.3000',
    tp: '1.04300',
  },
  // January
  {
    id: '350',
    instrument: 'EUR_USD',
    units: '10000',
    price: '1.03000',
    open: '2025-01-15T09:00:00.000Z',
    close: '2025-01-15T12:00:00.000Z',
    pl: '-20.0000',
  },
].map((s) => trade('demo', DEMO_ACCOUNT, s));

/** Live trades: different numbers, so that an answer shows which mode it read. */
export const LIVE_TRADES: TradeItem[] = [
  {
    id: '9001',
    instrument: 'EUR_USD',
    units: '1000',
    price: '1.08650',
    open: '2025-03-14T10:00:00.000Z',
    pl: '7.7700',
    sl: '1.08400',
  },
  {
    id: '8990',
    instrument: 'GBP_USD',
    units: '1500',
    price: '1.29500',
    open: '2025-03-14T04:00:00.000Z',
    close: '2025-03-14T11:00:00.000Z',
    pl: '19.9900',
  },
  {
    id: '8980',
    instrument: 'USD_JPY',
    units: '-1200',
    price: '148.300',
    open: '2025-03-14T06:00:00.000Z',
    close: '2025-03-14T07:00:00.000Z',
    pl: '4.4400',
  },
].map((s) => trade('live', LIVE_ACCOUNT, s));

function account(mode: Mode, id: string, values: Partial<AccountItem>): AccountItem {
  return {
    id: `acc-${id}`,
    userId: 'fixture-user',
    version: 1,
    oandaAccountId: id,
    mode,
    alias: null,
    currency: 'USD',
    balance: null,
    NAV: null,
    unrealizedPL: null,
    pl: null,
    financing: null,
    commission: null,
    marginUsed: null,
    marginAvailable: null,
    positionValue: null,
    marginRate: '0.02',
    marginCloseoutPercent: null,
    withdrawalLimit: null,
    openTradeCount: null,
    openPositionCount: null,
    pendingOrderCount: 0,
    hedgingEnabled: false,
    openedAt: '2024-01-02T00:00:00.000Z',
    lastTransactionID: '1000',
    syncedAt: '2025-03-14T14:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-03-14T14:00:00.000Z',
    platform: 'oanda',
    login: id,
    server: mode === 'live' ? 'fxtrade' : 'fxpractice',
    broker: null,
    leverage: null,
    brokerTime: null,
    serverUtcOffset: null,
    ...values,
  };
}

export const DEMO_ACCOUNTS: AccountItem[] = [
  account('demo', DEMO_ACCOUNT, {
    alias: 'Primary',
    balance: '100234.5678',
    NAV: '100267.5778',
    unrealizedPL: '33.0100',
    marginUsed: '3120.4400',
    marginAvailable: '97147.1378',
    marginCloseoutPercent: '0.01556',
    openTradeCount: 3,
    openPositionCount: 3,
  }),
];

const LIVE_ACCOUNTS: AccountItem[] = [
  account('live', LIVE_ACCOUNT, {
    alias: 'Real money',
    balance: '5230.1000',
    NAV: '5237.8700',
    unrealizedPL: '7.7700',
    marginUsed: '21.7300',
    marginAvailable: '5216.1400',
    openTradeCount: 1,
    openPositionCount: 1,
  }),
];

const BASE_PRICE: Record<string, number> = { EUR_USD: 1.085, GBP_USD: 1.294, USD_JPY: 148.2 };
const STEP_MS: Record<string, number> = { M1: 60_000, M5: 300_000, M15: 900_000, H1: 3_600_000, D: 86_400_000 };

/** Deterministic mid candles ending at FIXTURE_NOW; the last one still forming. */
export function fixtureCandles(instrument: string, granularity: string, count: number): CandlesResult {
  const base = BASE_PRICE[instrument] ?? 1;
  const places = instrument.endsWith('JPY') ? 3 : 5;
  const tick = instrument.endsWith('JPY') ? 0.01 : 0.0001;
  const step = STEP_MS[granularity] ?? 300_000;
  const candles: Candle[] = [];
  let price = base;
  for (let i = 0; i < count; i += 1) {
    // A repeating zig-zag with drift: known highs, lows and closes without randomness.
    const move = ((i % 7) - 3) * tick + tick / 2;
    const open = price;
    const close = price + move;
    const high = Math.max(open, close) + 2 * tick;
    const low = Math.min(open, close) - (1 + (i % 3)) * tick;
    candles.push({
      time: new Date(FIXTURE_NOW.getTime() - (count - i) * step).toISOString(),
      volume: 100 + i,
      complete: i < count - 1,
      mid: { o: open.toFixed(places), h: high.toFixed(places), l: low.toFixed(places), c: close.toFixed(places) },
    });
    price = close;
  }
  return { instrument, granularity, candles };
}

export interface FixtureDataOptions {
  /** Which mode the OANDA credentials are for; open trades and accounts of that mode come "from OANDA". */
  connectedMode?: Mode | null;
  /** Changes the trades the port answers from (extra trades, other currencies). */
  snapshot?: (snapshot: TradesSnapshot) => TradesSnapshot;
  /** The trader's journal (tags, notes, initial stops); empty unless given. */
  journal?: JournalSnapshot;
}

/** The assistant's data port over the fixtures above; records every candle request. */
export function fixtureChatData(options: FixtureDataOptions = {}) {
  const connected = options.connectedMode === undefined ? 'demo' : options.connectedMode;
  const candleRequests: CandleRequest[] = [];
  const origin = (mode: Mode, at: string | null): DataOrigin =>
    connected === mode
      ? { kind: 'oanda', at: FIXTURE_NOW.toISOString() }
      : { kind: 'sync', at, reason: connected === null ? 'not_connected' : 'other_mode' };
  const snapshotOf = (mode: Mode, liveOpen: boolean): TradesSnapshot => {
    const trades = mode === 'live' ? LIVE_TRADES : DEMO_TRADES;
    const accounts = mode === 'live' ? LIVE_ACCOUNTS : DEMO_ACCOUNTS;
    const openOrigin: DataOrigin =
      liveOpen || connected !== mode
        ? origin(mode, '2025-03-14T14:30:00.000Z')
        : { kind: 'sync', at: '2025-03-14T14:30:00.000Z', reason: 'not_asked' };
    const snapshot: TradesSnapshot = {
      trades,
      openOrigin,
      historySyncedAt: '2025-03-14T14:30:00.000Z',
      currencies: Object.fromEntries(accounts.map((a) => [a.oandaAccountId, a.currency ?? 'USD'])),
    };
    return options.snapshot ? options.snapshot(snapshot) : snapshot;
  };
  const data: ChatData = {
    async queryTrades(_userId, mode, filter, { liveOpen }) {
      return tradesFromSnapshot(snapshotOf(mode, liveOpen), filter, options.journal);
    },
    async journal() {
      return options.journal ?? EMPTY_JOURNAL;
    },
    async compareTags(_userId, mode, request, journal) {
      return tagsFromSnapshot(snapshotOf(mode, false), request, journal);
    },
    async performance(_userId, mode, request) {
      return performanceFromSnapshot(snapshotOf(mode, false), request);
    },
    async accounts(_userId, mode) {
      const accounts = mode === 'live' ? LIVE_ACCOUNTS : DEMO_ACCOUNTS;
      return { accounts, origin: origin(mode, '2025-03-14T14:00:00.000Z') };
    },
    async candles(_userId, request) {
      candleRequests.push(request);
      return fixtureCandles(request.instrument, request.granularity, request.count);
    },
  };
  return { data, candleRequests };
}
