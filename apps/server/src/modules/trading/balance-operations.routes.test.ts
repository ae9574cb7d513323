import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BalanceOperationsResponse,
  DashboardMetricsResponse,
  TradeListResponse,
  TradeNote,
} from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { userIdOf } from '../../test/seed-trades';
import { importedAccount, importedOperation, importedTrade } from '../../test/imported-book';
import { createTradingService, type TradingService } from './trading.service';
import type { ImportedBalanceOperationInput } from './metatrader-store';

/*
 * An import's balance operations (table balance_operations) and open trades, through storeImport, read back through
 * the API: GET /api/v1/account/get_balance_operations/:accountId, the trade list and the Overview. On SQLite (the
 * trade writer thread) and PostgreSQL.
 */

const SERVER = 'Pepperstone-Demo';
const LOGIN = '7654321';
const KEY = `metatrader:${SERVER}:${LOGIN}`;
const NOW = '2026-11-20T12:00:00.000Z';
const URL = `/api/v1/account/get_balance_operations/${encodeURIComponent(KEY)}`;

const ACCOUNT = importedAccount({
  server: SERVER,
  login: LOGIN,
  name: 'Jane Trader',
  currency: 'EUR',
  balance: '10500.00',
  equity: '10540.00',
  floatingPL: '40.00',
  closedPL: '200.00',
  broker: 'Pepperstone',
  leverage: '1:100',
  utcOffset: '+02:00',
  openTradeCount: 1,
});

// Server time at +02:00 → UTC.
const op = (o: Parameters<typeof importedOperation>[0]) => importedOperation(o, '+02:00');

const FIRST: ImportedBalanceOperationInput[] = [
  op({ ticket: '5001', serverTime: '2026-11-01T09:00:00', amount: '10000.00', comment: 'Deposit' }),
  op({ ticket: '5002', serverTime: '2026-11-05T09:00:00', amount: '-500.00', comment: 'Withdrawal' }),
  op({ ticket: '5003', serverTime: '2026-11-06T09:00:00', type: 'credit', amount: '250.00', comment: 'Credit in' }),
  // Without a ticket (a CSV): named by type, server time and amount; twice the same → an occurrence suffix.
  op({ serverTime: '2026-11-07T09:00:00', type: 'bonus', amount: '50.00' }),
  op({ serverTime: '2026-11-07T09:00:00', type: 'bonus', amount: '50.00' }),
  op({ serverTime: '2026-11-08T09:00:00', type: 'correction', amount: '-1.25' }),
  op({ serverTime: '2026-11-08T10:00:00', type: 'interest', amount: '0.40' }),
];

const closed = (t: Parameters<typeof importedTrade>[0]) =>
  importedTrade({
    stopLossPrice: '1.07800',
    serverOpenTime: '2026-11-02T10:00:00',
    commission: '-7.00',
    ...t,
  });
const OPEN = closed({
  ticket: '8002',
  units: '-50000',
  lots: '0.50',
  price: '1.09000',
  averageClosePrice: null,
  openTime: '2026-11-10T08:00:00Z',
  serverOpenTime: '2026-11-10T10:00:00',
  closeTime: null,
  realizedPL: '40.00',
  commission: '-3.50',
  swap: '-0.20',
});

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let trading: TradingService;
let alice: { token: string; username: string };
let bob: { token: string; username: string };
let aliceId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db });
  alice = await t.user('alice');
  bob = await t.user('bob');
  aliceId = await userIdOf(testDb.db.kysely, alice.username);
  trading = createTradingService({
    db: testDb.db.kysely,
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

describe('balance operations', () => {
  it('stores them once: the same file twice adds nothing, an overlapping later one only the new ones', async () => {
    const first = await trading.storeImport(aliceId, ACCOUNT, [closed({ ticket: '8001' })], FIRST);
    expect(first.balanceOperations).toEqual({ added: 7, updated: 0 });
    const again = await trading.storeImport(aliceId, ACCOUNT, [closed({ ticket: '8001' })], FIRST);
    expect(again.balanceOperations).toEqual({ added: 0, updated: 0 });
    const later = [
      ...FIRST.slice(2),
      op({ ticket: '5010', serverTime: '2026-11-15T09:00:00', amount: '700.00', comment: 'Deposit' }),
    ];
    const overlap = await trading.storeImport(aliceId, ACCOUNT, [], later);
    expect(overlap.balanceOperations).toEqual({ added: 1, updated: 0 });
    const stored = await testDb.db.kysely
      .selectFrom('balance_operations')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', aliceId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(8);
  });

  it('lists them newest first with their type, exact amount, currency and UTC time, by account key or login', async () => {
    const list = await get<BalanceOperationsResponse>(alice.token, URL);
    expect(list.total).toBe(8);
    expect(list.pages).toBe(1);
    expect(list.data.map((o) => [o.id, o.type, o.amount])).toEqual([
      ['5010', 'deposit', '700.00'],
      ['interest@2026-11-08T10:00:00@0.4', 'other', '0.40'],
      ['correction@2026-11-08T09:00:00@-1.25', 'correction', '-1.25'],
      ['bonus@2026-11-07T09:00:00@50#2', 'bonus', '50.00'],
      ['bonus@2026-11-07T09:00:00@50', 'bonus', '50.00'],
      ['5003', 'credit', '250.00'],
      ['5002', 'withdrawal', '-500.00'],
      ['5001', 'deposit', '10000.00'],
    ]);
    expect(list.data.at(-1)).toEqual({
      id: '5001',
      time: '2026-11-01T07:00:00.000000000Z',
      serverTime: '2026-11-01T09:00:00',
      type: 'deposit',
      printedType: 'balance',
      amount: '10000.00',
      currency: 'EUR',
      comment: 'Deposit',
    });
    const byLogin = await get<BalanceOperationsResponse>(
      alice.token,
      `/api/v1/account/get_balance_operations/${LOGIN}`,
    );
    expect(byLogin.data).toEqual(list.data);
    const page2 = await get<BalanceOperationsResponse>(alice.token, `${URL}?limit=3&page=3`);
    expect(page2).toMatchObject({ pages: 3, total: 8 });
    expect(page2.data.map((o) => o.id)).toEqual(['5002', '5001']);
  });

  it('answers 401 without a session, 404 for an account that is not the caller’s, 400 for a bad page', async () => {
    expect((await t.call(undefined, { method: 'GET', url: URL })).statusCode).toBe(401);
    const other = await t.call(bob.token, { method: 'GET', url: URL });
    expect(other.statusCode).toBe(404);
    expect(other.json<{ code: string; message: string }>()).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining(KEY),
    });
    const unknown = await t.call(alice.token, { method: 'GET', url: '/api/v1/account/get_balance_operations/999' });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.call(alice.token, { method: 'GET', url: `${URL}?page=0` });
    expect(bad.statusCode).toBe(400);
  });
});

describe('open trades', () => {
  const tradeList = () =>
    get<TradeListResponse>(alice.token, `/api/v1/trade/get_trade_history?platform=metatrader&accountId=${LOGIN}`);

  it('stores an open trade as open, outside the realized figures, and a re-import changes nothing', async () => {
    const counts = await trading.storeImport(aliceId, ACCOUNT, [closed({ ticket: '8001' }), OPEN], FIRST);
    expect(counts).toMatchObject({ added: 1, updated: 0, unchanged: 1 });
    expect(await trading.storeImport(aliceId, ACCOUNT, [closed({ ticket: '8001' }), OPEN], FIRST)).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: 2,
    });
    const open = (await tradeList()).data.find((x) => x.tradeId === '8002')!;
    expect(open).toMatchObject({
      state: 'OPEN',
      initialUnits: '-50000',
      currentUnits: '-50000',
      closeTime: null,
      averageClosePrice: null,
      realizedPL: '0',
      unrealizedPL: '40.00',
      financing: '-3.70',
      rMultiple: null,
    });
    const onlyOpen = await get<TradeListResponse>(
      alice.token,
      `/api/v1/trade/get_trade_history?platform=metatrader&state=OPEN`,
    );
    expect(onlyOpen.data.map((x) => x.tradeId)).toEqual(['8002']);
    const overview = await get<DashboardMetricsResponse>(alice.token, '/api/v1/dashboard/metrics?platform=metatrader');
    expect(overview.data.tradeCount).toBe(2);
    // Realized: the closed trade's P/L alone; the open one's floating 40 is not in it.
    expect(overview.data.charts.pnlByInstrument).toEqual([{ instrument: 'EUR_USD', netPL: 200, trades: 1 }]);
    expect(overview.data.winRate).toBe(100);
  });

  it('is closed by a later report that shows the same ticket closed, keeping its journal', async () => {
    const note = await t.call(alice.token, {
      method: 'POST',
      url: `/api/v1/journal/update_trade_note/${encodeURIComponent(KEY)}/8002`,
      payload: { note: 'held over the weekend', rating: 4 },
    });
    expect(note.statusCode, note.body).toBe(200);
    const closedLater = {
      ...OPEN,
      closeTime: '2026-11-12T08:00:00Z',
      averageClosePrice: '1.08800',
      realizedPL: '100.00',
    };
    expect(await trading.storeImport(aliceId, ACCOUNT, [closedLater], [])).toMatchObject({
      added: 0,
      updated: 1,
      unchanged: 0,
    });
    const list = await tradeList();
    expect(list.total).toBe(2);
    expect(list.data.find((x) => x.tradeId === '8002')).toMatchObject({
      state: 'CLOSED',
      currentUnits: '0',
      closeTime: '2026-11-12T08:00:00.000000000Z',
      realizedPL: '100.00',
      unrealizedPL: null,
      note: 'held over the weekend',
      rating: 4,
    });
    const kept = await get<{ data: TradeNote }>(
      alice.token,
      `/api/v1/journal/get_trade_note/${encodeURIComponent(KEY)}/8002`,
    );
    expect(kept.data).toMatchObject({ note: 'held over the weekend', rating: 4 });

    // The older report again, where the trade is still open: the closed trade stays closed.
    expect(await trading.storeImport(aliceId, ACCOUNT, [closed({ ticket: '8001' }), OPEN], FIRST)).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: 2,
    });
    expect((await tradeList()).data.find((x) => x.tradeId === '8002')).toMatchObject({
      state: 'CLOSED',
      realizedPL: '100.00',
    });
  });
});
