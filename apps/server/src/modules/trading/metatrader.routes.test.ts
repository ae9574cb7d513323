import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountListResponse, DashboardMetricsResponse, TradeListResponse } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { seedAccount, seedTrades, userIdOf } from '../../test/seed-trades';
import { parseCsv } from '../../test/csv';
import { importedAccount, importedTrade } from '../../test/imported-book';
import { createTradingService, type TradingService } from './trading.service';
import type { ImportedTradeInput } from './metatrader-store';

/*
 * Imported MetaTrader data through the trading service's storeImport, read back through the API: platform=metatrader
 * shows it, the default (oanda) never does, and OANDA's rows never show under metatrader. On SQLite (the trade
 * writer thread) and PostgreSQL.
 */

const OANDA_LOGIN = '101-004-2000001-001';
const SERVER = 'ICMarketsSC-Demo';
const LOGIN = '51234567';
const KEY = `metatrader:${SERVER}:${LOGIN}`;
const NOW = '2026-11-20T12:00:00.000Z';

const ACCOUNT = importedAccount({
  server: SERVER,
  login: LOGIN,
  name: 'Jane Trader',
  balance: '10250.40',
  equity: '10301.15',
  floatingPL: '50.75',
  closedPL: '250.40',
  margin: '120.00',
  freeMargin: '10181.15',
  broker: 'Raw Trading Ltd',
  leverage: '1:500',
  utcOffset: '+02:00',
  openTradeCount: 1,
  commission: '-21.00',
  swap: '-3.30',
});

const mt = (t: Parameters<typeof importedTrade>[0]) =>
  importedTrade({ symbol: 'EURUSD.r', stopLossPrice: '1.07800', commission: '-7.00', swap: '-1.10', ...t });

const TRADES: ImportedTradeInput[] = [
  mt({ ticket: '9001', openTime: '2026-11-02T08:00:00Z' }),
  mt({
    ticket: '9002',
    symbol: 'US30',
    instrument: 'US30',
    units: '-5',
    lots: '0.05',
    price: '43850.5',
    averageClosePrice: '43900.5',
    stopLossPrice: null,
    openTime: '2026-11-03T08:00:00Z',
    closeTime: '2026-11-03T09:30:00Z',
    realizedPL: '-2.50',
    commission: '0.00',
    swap: '0.00',
  }),
  // An MT5 netting position reversed: one position id, two positions.
  mt({ ticket: '9003', openTime: '2026-11-04T08:00:00Z', closeTime: '2026-11-04T09:00:00Z', realizedPL: '30.00' }),
  mt({
    ticket: '9003',
    units: '-100000',
    openTime: '2026-11-04T09:00:00Z',
    closeTime: '2026-11-04T11:00:00Z',
    realizedPL: '22.90',
    commission: '-7.00',
    swap: '-1.10',
  }),
];

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let trading: TradingService;
let alice: { token: string; username: string };
let bob: { token: string; username: string };
let aliceId: string;
let bobId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db });
  const db = testDb.db.kysely;
  alice = await t.user('alice');
  bob = await t.user('bob');
  aliceId = await userIdOf(db, alice.username);
  bobId = await userIdOf(db, bob.username);
  const key = await seedAccount(db, aliceId, OANDA_LOGIN);
  await seedTrades(db, aliceId, key, [
    { id: '11', open: '2026-10-01T08:00:00Z', close: '2026-10-01T09:00:00Z', pl: '5.0000' },
    { id: '12', open: '2026-10-02T08:00:00Z', close: '2026-10-02T09:00:00Z', pl: '-2.0000' },
  ]);
  trading = createTradingService({
    db,
    oanda: {} as never,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => new Date(NOW),
  });
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

const get = <T>(token: string, url: string) => t.getOk<T>(token, url);

describe('storeImport', () => {
  it('stores the account and its trades, names a reused ticket by its open time, and a re-import changes nothing', async () => {
    expect(await trading.storeImport(aliceId, ACCOUNT, TRADES)).toEqual({
      accountKey: KEY,
      added: 4,
      updated: 0,
      unchanged: 0,
      balanceOperations: { added: 0, updated: 0 },
    });
    expect(await trading.storeImport(aliceId, ACCOUNT, TRADES)).toEqual({
      accountKey: KEY,
      added: 0,
      updated: 0,
      unchanged: 4,
      balanceOperations: { added: 0, updated: 0 },
    });
    const stored = { accountKey: KEY, stored: { mode: 'demo', brokerTime: 'fixed', utcOffset: '+02:00' } };
    expect(await trading.importedAccount(aliceId, { server: SERVER, login: LOGIN })).toEqual(stored);
    // The key's colon rule: a login printed with colons names the same account.
    expect(await trading.importedAccount(aliceId, { server: SERVER, login: ` 5123:4567 ` })).toEqual(stored);
    expect(await trading.importedAccount(bobId, { server: SERVER, login: LOGIN })).toEqual({
      accountKey: KEY,
      stored: null,
    });
    expect(await trading.importedAccount(aliceId, { server: 'fxpractice', login: OANDA_LOGIN })).toEqual({
      accountKey: `metatrader:fxpractice:${OANDA_LOGIN}`,
      stored: null,
    });
    expect((await trading.importedAccount(aliceId, { server: 'csv', login: '' })).accountKey).toBe(
      'metatrader:csv:imported',
    );

    const list = await get<TradeListResponse>(alice.token, '/api/v1/trade/get_trade_history?platform=metatrader');
    expect(list.total).toBe(4);
    expect(list.data.map((x) => x.tradeId).sort()).toEqual([
      '9001',
      '9002',
      '9003@2026-11-04T08:00:00.000000000Z',
      '9003@2026-11-04T09:00:00.000000000Z',
    ]);
    const first = list.data.find((x) => x.tradeId === '9001')!;
    expect(first).toMatchObject({
      platform: 'metatrader',
      accountId: KEY,
      symbol: 'EURUSD.r',
      instrument: 'EUR_USD',
      lots: '1.00',
      commission: '-7.00',
      swap: '-1.10',
      financing: '-8.10',
      realizedPL: '200.00',
      state: 'CLOSED',
      initialUnits: '100000',
      currentUnits: '0',
      unrealizedPL: null,
      openTime: '2026-11-02T08:00:00.000000000Z',
      closeTime: '2026-11-02T10:00:00.000000000Z',
      stopLossPrice: '1.07800',
      initialRisk: { stopLossPrice: '1.07800' },
    });
    const index = list.data.find((x) => x.tradeId === '9002')!;
    expect(index).toMatchObject({ symbol: 'US30', instrument: 'US30', initialUnits: '-5', financing: '0.00' });
  });

  it('adds only the new trades of an overlapping file, updates a changed one, and keeps earlier ids', async () => {
    const next = [
      TRADES[0]!,
      { ...TRADES[1]!, realizedPL: '-2.40' },
      TRADES[3]!,
      mt({ ticket: '9004', openTime: '2026-11-05T08:00:00Z', closeTime: '2026-11-05T12:00:00Z' }),
      // A stored ticket seen again with another open time: the later position of a reversal.
      mt({ ticket: '9001', openTime: '2026-11-06T08:00:00Z', closeTime: '2026-11-06T09:00:00Z' }),
    ];
    expect(await trading.storeImport(aliceId, { ...ACCOUNT, balance: '10450.00' }, next)).toEqual({
      accountKey: KEY,
      added: 2,
      updated: 1,
      unchanged: 2,
      balanceOperations: { added: 0, updated: 0 },
    });
    const list = await get<TradeListResponse>(
      alice.token,
      '/api/v1/trade/get_trade_history?platform=metatrader&limit=50',
    );
    expect(list.data.map((x) => x.tradeId).sort()).toEqual([
      '9001',
      '9001@2026-11-06T08:00:00.000000000Z',
      '9002',
      '9003@2026-11-04T08:00:00.000000000Z',
      '9003@2026-11-04T09:00:00.000000000Z',
      '9004',
    ]);
    expect(list.data.find((x) => x.tradeId === '9002')!.realizedPL).toBe('-2.40');
  });
});

describe('platform filter', () => {
  it('lists OANDA trades by default and MetaTrader trades only when asked, by account key or login', async () => {
    const oanda = await get<TradeListResponse>(alice.token, '/api/v1/trade/get_trade_history');
    expect(oanda.data.map((x) => [x.tradeId, x.platform, x.accountId, x.symbol])).toEqual([
      ['12', 'oanda', OANDA_LOGIN, null],
      ['11', 'oanda', OANDA_LOGIN, null],
    ]);
    const byKey = await get<TradeListResponse>(
      alice.token,
      `/api/v1/trade/get_trade_history?platform=metatrader&accountId=${encodeURIComponent(KEY)}`,
    );
    expect(byKey.total).toBe(6);
    const byLogin = await get<TradeListResponse>(
      alice.token,
      `/api/v1/trade/get_trade_history?platform=metatrader&accountId=${LOGIN}`,
    );
    expect(byLogin.total).toBe(6);
    // An OANDA account under the MetaTrader platform: nothing.
    const crossed = await get<TradeListResponse>(
      alice.token,
      `/api/v1/trade/get_trade_history?platform=metatrader&accountId=${OANDA_LOGIN}`,
    );
    expect(crossed.total).toBe(0);
  });

  it('exports one platform at a time', async () => {
    const res = await t.call(alice.token, {
      method: 'GET',
      url: '/api/v1/trade/export_trades?platform=metatrader',
    });
    expect(res.statusCode).toBe(200);
    const [header, ...rows] = parseCsv(res.body);
    expect(rows.length).toBe(6);
    expect(header!.slice(-5)).toEqual(['Platform', 'Symbol', 'Lots', 'Commission', 'Swap']);
    const col = (name: string) => header!.indexOf(name);
    expect(new Set(rows.map((r) => r[col('Platform')]))).toEqual(new Set(['metatrader']));
    expect(rows.every((r) => r[col('Symbol')] !== '' && r[col('Lots')] !== '' && r[col('Commission')] !== '')).toBe(
      true,
    );
    const oanda = await t.call(alice.token, { method: 'GET', url: '/api/v1/trade/export_trades' });
    expect(parseCsv(oanda.body).length - 1).toBe(2);
  });

  it('lists accounts of one platform with their login, server, broker, leverage and offset', async () => {
    const mtAccounts = await get<AccountListResponse>(alice.token, '/api/v1/account/get_accounts?platform=metatrader');
    expect(mtAccounts.total).toBe(1);
    expect(mtAccounts.data[0]).toMatchObject({
      platform: 'metatrader',
      oandaAccountId: KEY,
      login: LOGIN,
      server: SERVER,
      broker: 'Raw Trading Ltd',
      leverage: '1:500',
      serverUtcOffset: '+02:00',
      alias: 'Jane Trader',
      balance: '10450.00',
      NAV: '10301.15',
      unrealizedPL: '50.75',
      pl: '250.40',
      marginUsed: '120.00',
      marginAvailable: '10181.15',
      commission: '-21.00',
      financing: '-3.30',
      openTradeCount: 1,
      mode: 'demo',
      syncedAt: NOW,
      // Stored, then changed once (the balance of the second file).
      version: 1,
    });
    const oanda = await get<AccountListResponse>(alice.token, '/api/v1/account/get_accounts');
    expect(oanda.data.map((a) => [a.platform, a.oandaAccountId, a.login, a.server])).toEqual([
      ['oanda', OANDA_LOGIN, OANDA_LOGIN, 'fxpractice'],
    ]);
  });

  it('computes the overview of one platform: trades, accounts and P/L never mix', async () => {
    const mtOverview = await get<DashboardMetricsResponse>(
      alice.token,
      '/api/v1/dashboard/metrics?platform=metatrader',
    );
    expect(mtOverview.data.tradeCount).toBe(6);
    expect(mtOverview.data.accountCount).toBe(1);
    const oanda = await get<DashboardMetricsResponse>(alice.token, '/api/v1/dashboard/metrics');
    expect(oanda.data.tradeCount).toBe(2);
    expect(oanda.data.accountCount).toBe(1);
    expect(mtOverview.data.dataAsOf).not.toBe(oanda.data.dataAsOf);
  });

  it('keeps the platforms apart for a user with one platform only', async () => {
    const carol = await t.user('carol');
    const carolId = await userIdOf(testDb.db.kysely, carol.username);
    const key = await seedAccount(testDb.db.kysely, carolId, '101-004-2000009-001');
    await seedTrades(testDb.db.kysely, carolId, key, [
      { id: '21', open: '2026-10-01T08:00:00Z', close: '2026-10-01T09:00:00Z', pl: '1.0000' },
    ]);
    const mtList = await get<TradeListResponse>(carol.token, '/api/v1/trade/get_trade_history?platform=metatrader');
    expect(mtList.total).toBe(0);
    const oandaList = await get<TradeListResponse>(carol.token, '/api/v1/trade/get_trade_history?platform=oanda');
    expect(oandaList.data.map((x) => x.tradeId)).toEqual(['21']);
    const dave = await t.user('dave');
    const daveId = await userIdOf(testDb.db.kysely, dave.username);
    await trading.storeImport(daveId, ACCOUNT, [TRADES[0]!]);
    const daveOanda = await get<TradeListResponse>(dave.token, '/api/v1/trade/get_trade_history');
    expect(daveOanda.total).toBe(0);
    const daveMt = await get<TradeListResponse>(dave.token, '/api/v1/trade/get_trade_history?platform=metatrader');
    expect(daveMt.data.map((x) => [x.tradeId, x.accountId])).toEqual([['9001', KEY]]);
  });

  it("shows nothing of another user's import", async () => {
    const list = await get<TradeListResponse>(bob.token, '/api/v1/trade/get_trade_history?platform=metatrader');
    expect(list.total).toBe(0);
    const accounts = await get<AccountListResponse>(bob.token, '/api/v1/account/get_accounts?platform=metatrader');
    expect(accounts.total).toBe(0);
    const byKey = await get<TradeListResponse>(
      bob.token,
      `/api/v1/trade/get_trade_history?platform=metatrader&accountId=${encodeURIComponent(KEY)}`,
    );
    expect(byKey.total).toBe(0);
    const metrics = await get<DashboardMetricsResponse>(bob.token, '/api/v1/dashboard/metrics?platform=metatrader');
    expect(metrics.data.tradeCount).toBe(0);
    expect(metrics.message).toMatch(/No MetaTrader trades imported yet/);
  });
});
