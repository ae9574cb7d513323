// The MAE/MFE job against the OANDA simulator's candles, with a controlled clock.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { createOandaClient, type OandaClient } from '../../integrations/oanda/oanda-client';
import { createCandleBudget, createCandleStore, memoryWindowCounter, type WindowCounter } from '../candles';
import { createTestDb } from '../../test/harness';
import { importedAccount, importedTrade } from '../../test/imported-book';
import { oandaAccount } from './account-key';
import { tradeRecord } from './broker-data';
import { createExcursionJob } from './excursions-job';
import { candlePlanFor, excursionsFromCandles } from './excursions';
import { createTradeRepository } from './trade.repository';
import { createTradingService } from './trading.service';

const SIM_NOW = Date.parse('2025-10-06T12:00:00.000Z');
const WITH_OANDA = 'user-with-oanda';
const WITHOUT = 'user-without-oanda';

let sim: OandaSim;
let client: OandaClient;
let testDb: { db: Db; close(): Promise<void> };
let clock: number;

beforeAll(async () => {
  sim = await startOandaSim({ seed: 9, accounts: 1, tradesPerAccount: 60, now: () => SIM_NOW });
  client = createOandaClient({ practiceUrl: sim.url, liveUrl: 'http://127.0.0.1:9', retries: 0, baseDelayMs: 1 });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});
beforeEach(async () => {
  clock = Date.parse('2025-10-07T00:00:00.000Z');
  testDb = await createTestDb();
  await migrateToLatest(testDb.db);
  const at = '2025-01-01T00:00:00.000Z';
  for (const id of [WITH_OANDA, WITHOUT])
    await testDb.db.kysely
      .insertInto('users')
      .values({
        id,
        username: id,
        username_key: id,
        email: `${id}@x.io`,
        password_hash: 'x',
        created_at: at,
        updated_at: at,
      })
      .execute();
  // Both users hold the simulator's closed trades (the second has no OANDA connection, so no candle source).
  const accountId = sim.accountIds[0]!;
  const identity = oandaAccount('demo', accountId);
  const key = identity.account_key;
  for (const user of [WITH_OANDA, WITHOUT])
    await testDb.db.kysely
      .insertInto('broker_accounts')
      .values({
        id: `${user}-account`,
        user_id: user,
        account_key: key,
        platform: identity.platform,
        server: identity.server,
        login: identity.login,
        mode: 'demo',
        synced_at: at,
        version: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
  const trades = createTradeRepository(testDb.db.kysely);
  const closed = sim.state.trades(accountId, 'CLOSED').slice(0, 6);
  for (const user of [WITH_OANDA, WITHOUT])
    await trades.write(
      user,
      key,
      closed.map((t) => tradeRecord(t, 'demo')),
      at,
      { fresh: true },
    );
});
afterEach(async () => {
  sim.faults.reset();
  await testDb.close();
});

/** The users whose OANDA connection the job finds (WITHOUT connects in one test). */
let connected: Set<string>;
beforeEach(() => {
  connected = new Set([WITH_OANDA]);
});

/** The token's budget counters, one set per test: a job built later in the test finds the window it left. */
let counter: WindowCounter;
beforeEach(() => {
  counter = memoryWindowCounter(() => new Date(clock));
});

/** The candle store as app.ts builds it, batch work's share of each minute `batchPerMinute`. */
const candleStore = (batchPerMinute = 100) =>
  createCandleStore({
    db: testDb.db.kysely,
    oanda: client,
    budget: createCandleBudget({ counter, perMinute: 1000, batchPerMinute }),
    now: () => new Date(clock),
  });

function job(requestsPerMinute = 100) {
  return createExcursionJob({
    db: testDb.db.kysely,
    candles: candleStore(requestsPerMinute),
    credentials: async (userId) =>
      connected.has(userId) ? { accessToken: sim.token, mode: 'demo', accountId: '' } : undefined,
    now: () => new Date(clock),
    requestsPerMinute,
    retryMs: 60_000,
  });
}

const rows = (userId: string) =>
  testDb.db.kysely.selectFrom('trades').selectAll().where('user_id', '=', userId).orderBy('trade_num').execute();

const candleRequests = () => sim.requestLog.filter((r) => r.path.endsWith('/candles'));

const tradingService = () =>
  createTradingService({
    db: testDb.db.kysely,
    oanda: client,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => new Date(clock),
  });

/** Imports two closed MetaTrader trades for the user: one on an OANDA instrument (the simulator's), one on US30. */
async function importTwo(userId: string): Promise<{ added: number }> {
  const source = sim.state.trades(sim.accountIds[0]!, 'CLOSED')[0]!;
  const trading = tradingService();
  const trade = {
    instrument: source.instrument,
    units: source.initialUnits,
    lots: '0.01',
    price: source.price,
    averageClosePrice: source.averageClosePrice ?? null,
    openTime: source.openTime,
    closeTime: source.closeTime!,
    realizedPL: '1.00',
  };
  return trading.storeImport(userId, importedAccount(), [
    importedTrade({ ...trade, ticket: '1' }),
    importedTrade({
      ...trade,
      ticket: '2',
      symbol: 'US30',
      instrument: 'US30',
      price: '43850.5',
      averageClosePrice: '43900.5',
    }),
  ]);
}

describe('the excursions job', () => {
  it('gives each closed trade its MAE and MFE from one candle request, and none to a user without OANDA', async () => {
    const before = candleRequests().length;
    const report = await job().runOnce();
    expect(report).toEqual({ ready: 6, unavailable: 6, failed: 0, deferred: 0 });
    expect(candleRequests().length - before).toBe(6);

    for (const row of await rows(WITH_OANDA)) {
      expect(row.excursion_status).toBe('ready');
      // The same figures from the simulator's candles, fetched here on our own.
      const plan = candlePlanFor({ ...row, close_time: row.close_time! });
      const body = await client
        .forCredentials({ accessToken: sim.token, mode: 'demo' })
        .candles(plan.instrument, plan.params);
      const expected = excursionsFromCandles(plan, body);
      expect(expected).not.toBeNull();
      expect({ maePrice: row.mae_price, mfePrice: row.mfe_price }).toEqual(expected);
      // The worst price is never better than the exit, the best never worse.
      const long = !row.initial_units.startsWith('-');
      const [mae, mfe, exit] = [Number(row.mae_price), Number(row.mfe_price), Number(row.average_close_price)];
      expect(long ? mae <= exit && exit <= mfe : mae >= exit && exit >= mfe).toBe(true);
    }
    for (const row of await rows(WITHOUT)) {
      expect(row.excursion_status).toBe('unavailable');
      expect(row.mae_price).toBeNull();
    }
    // Done is done: the next run has nothing to do.
    expect(await job().runOnce()).toEqual({ ready: 0, unavailable: 0, failed: 0, deferred: 0 });
  });

  it('keeps to the per-token budget: the rest waits for the next minute', async () => {
    const j = job(4);
    // A run takes at most a minute's budget of a user's trades; the user without OANDA is not held up.
    expect(await j.runOnce()).toEqual({ ready: 4, unavailable: 4, failed: 0, deferred: 0 });
    expect(await j.runOnce()).toEqual({ ready: 0, unavailable: 2, failed: 0, deferred: 2 });
    clock += 61_000;
    expect(await j.runOnce()).toMatchObject({ ready: 2, deferred: 0 });
    expect((await rows(WITH_OANDA)).every((r) => r.excursion_status === 'ready')).toBe(true);
  });

  it('marks an upstream failure failed and retries it later, waiting longer after each failure', async () => {
    sim.faults.fail(100, 503, { match: '/candles' });
    const j = job();
    expect(await j.runOnce()).toMatchObject({ ready: 0, failed: 6 });
    expect((await rows(WITH_OANDA)).map((r) => [r.excursion_status, Number(r.excursion_attempts)])).toEqual(
      Array.from({ length: 6 }, () => ['failed', 1]),
    );
    // Not before the first wait (1 min) is over.
    clock += 30_000;
    expect(await j.runOnce()).toMatchObject({ failed: 0, ready: 0 });
    clock += 31_000;
    expect(await j.runOnce()).toMatchObject({ failed: 6 });
    // Second failure in a row: 2 minutes.
    sim.faults.reset();
    clock += 61_000;
    expect(await j.runOnce()).toMatchObject({ failed: 0, ready: 0 });
    clock += 60_000;
    expect(await j.runOnce()).toMatchObject({ ready: 6 });
    const done = await rows(WITH_OANDA);
    expect(done.map((r) => [r.excursion_status, Number(r.excursion_attempts)])).toEqual(
      Array.from({ length: 6 }, () => ['ready', 0]),
    );
  });

  it('runs on a timer once started and stops cleanly', async () => {
    const j = createExcursionJob({
      db: testDb.db.kysely,
      candles: candleStore(),
      credentials: async () => ({ accessToken: sim.token, mode: 'demo', accountId: '' }),
      now: () => new Date(clock),
      intervalMs: 20,
    });
    j.start();
    for (let i = 0; i < 200; i += 1) {
      const all = [...(await rows(WITH_OANDA)), ...(await rows(WITHOUT))];
      if (all.every((r) => r.excursion_status === 'ready')) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await j.stop();
    const all = [...(await rows(WITH_OANDA)), ...(await rows(WITHOUT))];
    expect(all.map((r) => r.excursion_status)).toEqual(Array.from({ length: 12 }, () => 'ready'));
  });

  it('reads candles for an imported MetaTrader trade on an OANDA instrument only; a broker symbol is unavailable', async () => {
    const stored = await importTwo(WITH_OANDA);
    expect(stored.added).toBe(2);
    const before = candleRequests().length;
    // The OANDA trades of both users first (the job takes the newest closes first), then the imported ones.
    for (let run = 0; run < 3; run += 1) await job().runOnce();
    const imported = await testDb.db.kysely
      .selectFrom('trades')
      .select(['trade_id', 'instrument', 'excursion_status', 'mae_price'])
      .where('user_id', '=', WITH_OANDA)
      .where('platform', '=', 'metatrader')
      .orderBy('trade_id')
      .execute();
    expect(imported.map((r) => [r.trade_id, r.excursion_status])).toEqual([
      ['1', 'ready'],
      ['2', 'unavailable'],
    ]);
    expect(imported[0]!.mae_price).not.toBeNull();
    const asked = sim.requestLog.slice(before).filter((r) => r.path.endsWith('/candles'));
    expect(asked.some((r) => r.path.includes('US30'))).toBe(false);
    // The 6 OANDA trades of the connected user; the imported EUR trade is a copy of one of them (same instrument,
    // side and life), so its candles come from the store and are not asked for again.
    expect(asked).toHaveLength(6);
  });

  it('looks again at the trades left unavailable for want of a connection once the user connects OANDA', async () => {
    expect((await importTwo(WITHOUT)).added).toBe(2);
    // Before the connection: no candle source, every closed trade of the user is unavailable.
    for (let run = 0; run < 2; run += 1) await job().runOnce();
    expect((await rows(WITHOUT)).map((r) => r.excursion_status)).toEqual(
      Array.from({ length: 8 }, () => 'unavailable'),
    );
    expect(await job().runOnce()).toEqual({ ready: 0, unavailable: 0, failed: 0, deferred: 0 });

    // The user connects OANDA (settings' hook calls this): the trades on OANDA instruments are queued again, the
    // broker symbol is not.
    connected.add(WITHOUT);
    expect(await tradingService().oandaConnected(WITHOUT)).toBe(7);
    const before = candleRequests().length;
    for (let run = 0; run < 2; run += 1) await job().runOnce();
    const after = await rows(WITHOUT);
    expect(after.map((r) => [r.instrument === 'US30' ? 'US30' : 'oanda', r.excursion_status])).toEqual(
      after.map((r) => (r.instrument === 'US30' ? ['US30', 'unavailable'] : ['oanda', 'ready'])),
    );
    expect(after.filter((r) => r.excursion_status === 'ready')).toHaveLength(7);
    // The candles are market data shared by the users of one environment: the other user's trades (the same
    // simulator trades) stored them already, so none is asked for again.
    const asked = sim.requestLog.slice(before).filter((r) => r.path.endsWith('/candles'));
    expect(asked).toHaveLength(0);

    // Nothing unavailable on an OANDA instrument is left: another connection change queues nothing, asks nothing.
    expect(await tradingService().oandaConnected(WITHOUT)).toBe(0);
    expect(await job().runOnce()).toEqual({ ready: 0, unavailable: 0, failed: 0, deferred: 0 });
  });

  it('retries failed excursions at once when the token changes, instead of after their backoff', async () => {
    sim.faults.fail(100, 503, { match: '/candles' });
    expect(await job().runOnce()).toMatchObject({ failed: 6 });
    sim.faults.reset();
    // Half a minute on, still inside the first wait (retryMs): nothing is due.
    clock += 30_000;
    expect(await job().runOnce()).toMatchObject({ ready: 0, failed: 0 });
    expect(await tradingService().oandaConnected(WITH_OANDA)).toBe(6);
    expect(await job().runOnce()).toMatchObject({ ready: 6, failed: 0 });
  });
});
