import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BalanceHistoryResponse, ReturnsResponse } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { importedAccount, importedTrade } from '../../test/imported-book';
import { userIdOf } from '../../test/seed-trades';
import { createTradingService } from '../trading';

/*
 * GET /api/v1/money/get_balance_history/:accountId and GET /api/v1/money/get_returns on an imported MetaTrader
 * account (balance operations and trades stored through trading's storeImport), on SQLite and PostgreSQL: B(t) with
 * commission and swap booked at the close (decision 012), returns time-weighted, bad inputs, another user's account.
 */

const SERVER = 'Money-Demo';
const LOGIN = '5550001';
const KEY = `metatrader:${SERVER}:${LOGIN}`;
const HISTORY = `/api/v1/money/get_balance_history/${encodeURIComponent(KEY)}`;
const RETURNS = `/api/v1/money/get_returns?accountId=${encodeURIComponent(KEY)}`;

const ACCOUNT = importedAccount({
  server: SERVER,
  login: LOGIN,
  name: 'Jane Trader',
  currency: 'EUR',
  balance: '9588.05',
  equity: '9588.05',
  floatingPL: '0.00',
  closedPL: '100.00',
  broker: 'Money Broker',
  leverage: '1:100',
  utcOffset: '+02:00',
});

const op = (serverTime: string, type: string, amount: string, ticket: string | null = null) => ({
  ticket,
  type,
  amount,
  comment: null,
  serverTime,
  time: new Date(`${serverTime}+02:00`).toISOString(),
});

const closed = (t: Parameters<typeof importedTrade>[0]) =>
  importedTrade({ serverOpenTime: '2026-11-02T10:00:00', commission: '-7.00', ...t });

/*
 * By hand (EUR):
 *   11-01 07:00 deposit 10,000.00                       10,000.0000
 *   11-02 10:00 8001 closes 200.00 − 7.00 commission    10,193.0000
 *   11-05 07:00 withdrawal −500.00                       9,693.0000
 *   11-06 12:00 8002 closes −100.00 − 3.50 − 0.20        9,589.3000
 *   11-08 07:00 correction −1.25                         9,588.0500
 * TWR for November: 10,193 / 10,000 × 9,588.05 / 9,693 = 1.0082636… → 0.8264 %.
 */
const OPERATIONS = [
  op('2026-11-01T09:00:00', 'balance', '10000.00', '5001'),
  op('2026-11-05T09:00:00', 'balance', '-500.00', '5002'),
  op('2026-11-08T09:00:00', 'correction', '-1.25'),
];
const TRADES = [
  closed({ ticket: '8001' }),
  closed({
    ticket: '8002',
    openTime: '2026-11-06T08:00:00Z',
    closeTime: '2026-11-06T12:00:00Z',
    serverOpenTime: '2026-11-06T10:00:00',
    averageClosePrice: '1.07900',
    realizedPL: '-100.00',
    commission: '-3.50',
    swap: '-0.20',
  }),
];

let t: TestApp;
let store: () => Promise<unknown>;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let alice: { token: string; username: string };
let bob: { token: string; username: string };

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db, now: () => new Date('2026-11-20T12:00:00Z') });
  alice = await t.user('alice');
  bob = await t.user('bob');
  const trading = createTradingService({
    db: testDb.db.kysely,
    oanda: {} as never,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => new Date('2026-11-20T12:00:00Z'),
  });
  const aliceId = await userIdOf(testDb.db.kysely, alice.username);
  await trading.storeImport(aliceId, ACCOUNT, TRADES, OPERATIONS);
  store = () =>
    trading.storeImport(aliceId, ACCOUNT, TRADES, [
      ...OPERATIONS,
      op('2026-11-10T09:00:00', 'balance', '250.00', '5003'),
    ]);
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

const get = <T>(token: string, url: string) => t.getOk<T>(token, url);

describe('GET /api/v1/money/get_balance_history/:accountId', () => {
  it('gives B(t) after every booking, by account key or login; equity unknown without a candle source', async () => {
    const body = await get<BalanceHistoryResponse>(alice.token, HISTORY);
    expect(body.success).toBe(true);
    expect(body.data.currency).toBe('EUR');
    expect(body.data.points.map((p) => [p.time, p.balance])).toEqual([
      ['2026-11-01T07:00:00.000Z', '10000.0000'],
      ['2026-11-02T10:00:00.000Z', '10193.0000'],
      ['2026-11-05T07:00:00.000Z', '9693.0000'],
      ['2026-11-06T12:00:00.000Z', '9589.3000'],
      ['2026-11-08T07:00:00.000Z', '9588.0500'],
    ]);
    expect(body.data.points.every((p) => p.equity === null && p.equitySource === null)).toBe(true);
    expect(body.data.equityComplete).toBe(false);
    const byLogin = await get<BalanceHistoryResponse>(alice.token, `/api/v1/money/get_balance_history/${LOGIN}`);
    expect(byLogin.data).toEqual(body.data);
  });

  it('by day within from and to', async () => {
    const body = await get<BalanceHistoryResponse>(
      alice.token,
      `${HISTORY}?resolution=day&from=2026-11-04T00:00:00Z&to=2026-11-07T00:00:00Z`,
    );
    expect(body.data.points.map((p) => [p.time.slice(0, 10), p.balance])).toEqual([
      ['2026-11-05', '10193.0000'],
      ['2026-11-06', '9693.0000'],
      ['2026-11-07', '9589.3000'],
    ]);
  });

  it.each([
    ['?resolution=minute', 'resolution must be trade, hour or day'],
    ['?from=yesterday', 'from must be an ISO-8601 date or time'],
    ['?from=2026-11-10&to=2026-11-01', 'from must not be after to'],
    ['?resolution=hour&from=2000-01-01&to=2026-11-01', 'Narrow from and to, or choose a coarser resolution'],
  ])('400 for %s', async (query, message) => {
    const res = await t.call(alice.token, { method: 'GET', url: `${HISTORY}${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(message);
  });

  it('401 without a session, 404 for another user’s account or one that does not exist', async () => {
    expect((await t.call(undefined, { method: 'GET', url: HISTORY })).statusCode).toBe(401);
    const other = await t.call(bob.token, { method: 'GET', url: HISTORY });
    expect(other.statusCode).toBe(404);
    expect(other.json<{ message: string }>().message).toContain(KEY);
    expect(
      (await t.call(bob.token, { method: 'GET', url: `/api/v1/money/get_balance_history/${LOGIN}` })).statusCode,
    ).toBe(404);
    expect(
      (await t.call(alice.token, { method: 'GET', url: '/api/v1/money/get_balance_history/nope' })).statusCode,
    ).toBe(404);
  });
});

describe('a later import', () => {
  it('shows its new deposit: the kept bookings follow the data version', async () => {
    await get<BalanceHistoryResponse>(alice.token, HISTORY);
    await store();
    const body = await get<BalanceHistoryResponse>(alice.token, HISTORY);
    expect(body.data.points.at(-1)).toMatchObject({ time: '2026-11-10T07:00:00.000Z', balance: '9838.0500' });
  });
});

describe('GET /api/v1/money/get_returns', () => {
  it('time-weighted: the withdrawal is not performance', async () => {
    const body = await get<ReturnsResponse>(
      alice.token,
      `${RETURNS}&period=month&from=2026-11-01T00:00:00Z&to=2026-11-30T23:59:59Z`,
    );
    expect(body.data).toEqual({
      currency: 'EUR',
      total: '0.8264',
      periods: [{ start: '2026-11-01T00:00:00.000Z', return: '0.8264' }],
    });
  });

  it.each([
    ['', 'accountId is required'],
    [`?accountId=${KEY}&period=week`, 'period must be day, month or year'],
    [`?accountId=${KEY}&to=soon`, 'to must be an ISO-8601 date or time'],
    [`?accountId=${KEY}&period=day&from=1900-01-01`, 'choose a longer period'],
  ])('400 for %s', async (query, message) => {
    const res = await t.call(alice.token, { method: 'GET', url: `/api/v1/money/get_returns${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(message);
  });

  it('404 for another user’s account', async () => {
    expect((await t.call(bob.token, { method: 'GET', url: RETURNS })).statusCode).toBe(404);
  });
});
