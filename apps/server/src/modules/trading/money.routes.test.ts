import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import type { CashFlowsResponse } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { userIdOf } from '../../test/seed-trades';
import { importedAccount, importedOperation } from '../../test/imported-book';
import { createTradingService } from './trading.service';
import { createAccountTransactionRepository } from './account-transaction.repository';

/*
 * The transaction store (docs/decisions/022-transaction-store.md) against the v20 simulator, and the cash flows
 * route: GET /api/v1/money/get_cash_flows. On SQLite and PostgreSQL.
 */

const NOW = Date.UTC(2025, 9, 3, 14, 30);
/**
 * The types the store keeps, as the simulator is asked for them to know what the broker has, and the `type` filter
 * the sync must send: OANDA's TransactionFilter names (no DIVIDEND_ADJUSTMENT among them).
 */
const KEPT = [
  'TRANSFER_FUNDS',
  'DAILY_FINANCING',
  'STOP_LOSS_ORDER',
  'GUARANTEED_STOP_LOSS_ORDER',
  'TAKE_PROFIT_ORDER',
  'TRAILING_STOP_LOSS_ORDER',
  'ORDER_CANCEL',
];
/** The `type` filter the sync sends: the kept types and the fills, whose reductions and closes it keeps apart. */
const ASKED = [...KEPT, 'ORDER_FILL'].join(',');

let sim: OandaSim;
let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let clock = NOW;

beforeAll(async () => {
  sim = await startOandaSim({ accounts: 2, tradesPerAccount: 400, now: () => clock });
  testDb = await createTestDb();
  t = await createTestApp(
    { OANDA_PRACTICE_URL: sim.url, OANDA_LIVE_URL: 'http://127.0.0.1:9' },
    { db: testDb.db, oanda: { retries: 0, timeoutMs: 5_000 } },
  );
});
afterAll(async () => {
  await t.close();
  await testDb.close();
  await sim.close();
});

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });

async function connected(prefix: string): Promise<{ token: string; id: string; username: string }> {
  const user = await t.oandaUser({ oanda: { accessToken: sim.token }, sync: 'none' }, prefix);
  return { token: user.token, username: user.username, id: await userIdOf(testDb.db.kysely, user.username) };
}

async function syncOk(token: string, query = '') {
  const res = await get(token, `/api/v1/trade/sync_trade${query}`);
  expect(res.statusCode, res.body).toBe(200);
}

/** What the broker holds: every transaction of the kept types, straight from the simulator, as rows. */
async function brokerRows(accountId: string) {
  const last = sim.state.lastTransactionID(accountId);
  const res = await fetch(
    `${sim.url}/v3/accounts/${accountId}/transactions/idrange?from=1&to=${last}&type=${KEPT.join(',')}`,
    { headers: { authorization: `Bearer ${sim.token}` } },
  );
  const { transactions } = (await res.json()) as { transactions: Array<Record<string, string | undefined>> };
  const tradeOfOrder = new Map(transactions.filter((x) => x['tradeID']).map((x) => [x['id'], x['tradeID']]));
  return transactions.map((x) => [
    Number(x['id']),
    x['type'],
    x['amount'] ?? x['financing'] ?? null,
    x['accountBalance'] ?? null,
    x['tradeID'] ?? (x['type'] === 'ORDER_CANCEL' ? tradeOfOrder.get(x['orderID']) : null),
    x['price'] ?? null,
    x['distance'] ?? null,
    x['replacesOrderID'] ?? null,
  ]);
}

/** What the store holds for the user's account. */
async function storedRows(userId: string, accountId: string) {
  const rows = await testDb.db.kysely
    .selectFrom('account_transactions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('account_key', '=', `oanda:fxpractice:${accountId}`)
    .orderBy('transaction_num')
    .execute();
  return rows.map((r) => [
    Number(r.transaction_num),
    r.type,
    r.amount,
    r.balance,
    r.trade_id,
    r.price,
    r.distance,
    r.replaces_order_id,
  ]);
}

const transactionRequests = () => sim.requestLog.filter((r) => r.path.includes('/transactions'));

describe('the transaction store', () => {
  let alice: { token: string; id: string; username: string };
  const [first, second] = [() => sim.accountIds[0]!, () => sim.accountIds[1]!];

  it("holds the broker's transfers, financing and stop and target orders once after a first sync", async () => {
    alice = await connected('alice');
    sim.requestLog.length = 0;
    await syncOk(alice.token);
    const asked = transactionRequests();
    for (const account of [first(), second()]) {
      const broker = await brokerRows(account);
      expect(broker.length).toBeGreaterThan(400);
      const types = new Set(broker.map((r) => r[1]));
      for (const type of ['TRANSFER_FUNDS', 'DAILY_FINANCING', 'STOP_LOSS_ORDER', 'TAKE_PROFIT_ORDER', 'ORDER_CANCEL'])
        expect(types, type).toContain(type);
      expect(await storedRows(alice.id, account)).toEqual(broker);
    }
    // Read by id range only, of the kept types only: no listing, no transaction by id, each id asked once.
    expect(asked.every((r) => r.path.endsWith('/transactions/idrange'))).toBe(true);
    expect(new Set(asked.map((r) => r.query.type))).toEqual(new Set([ASKED]));
    for (const account of [first(), second()]) {
      const ranges = asked
        .filter((r) => r.path.includes(account))
        .map((r) => [Number(r.query.from), Number(r.query.to)]);
      ranges.sort((a, b) => a[0]! - b[0]!);
      expect(ranges[0]![0]).toBe(1);
      expect(ranges.at(-1)![1]).toBe(Number(sim.state.lastTransactionID(account)));
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBe(ranges[i - 1]![1]! + 1);
    }
  });

  it('adds only what is new: a deposit, a withdrawal and stop moves in one idrange request; nothing new asks nothing', async () => {
    const account = first();
    const before = Number(sim.state.lastTransactionID(account));
    const open = sim.state.trades(account, 'OPEN').find((o) => o.stopLossOrder)!;
    const entry = Number(open.price);
    const long = !open.initialUnits.startsWith('-');
    const away = (pips: number) => (long ? entry - pips : entry + pips).toFixed(open.price.split('.')[1]!.length);
    sim.transferFunds(account, '2500.50', 'Top-up');
    sim.setStopLoss(account, open.id, away(0.01));
    sim.setStopLoss(account, open.id, away(0.005)); // moved: a replacement and the cancel of the one it replaces
    sim.transferFunds(account, '-1000', 'Payout');
    sim.setStopLoss(account, open.id, null); // removed: a cancel
    sim.requestLog.length = 0;
    await syncOk(alice.token);
    const asked = transactionRequests();
    expect(asked.map((r) => [r.path.split('/')[3], r.query.from, r.query.to])).toEqual([
      [account, String(before + 1), sim.state.lastTransactionID(account)],
    ]);
    const stored = await storedRows(alice.id, account);
    expect(stored).toEqual(await brokerRows(account));
    const added = stored.filter((r) => (r[0] as number) > before);
    // Each stop replaces the one before it: the new order, then the cancel of the old one.
    expect(added.map((r) => [r[1], r[2], r[4]])).toEqual([
      ['TRANSFER_FUNDS', '2500.5000', null],
      ['STOP_LOSS_ORDER', null, open.id],
      ['ORDER_CANCEL', null, open.id],
      ['STOP_LOSS_ORDER', null, open.id],
      ['ORDER_CANCEL', null, open.id],
      ['TRANSFER_FUNDS', '-1000.0000', null],
      ['ORDER_CANCEL', null, open.id],
    ]);
    expect(added[2]![0]).toBe((added[1]![0] as number) + 1);

    sim.requestLog.length = 0;
    await syncOk(alice.token);
    await syncOk(alice.token, '?full=true');
    expect(transactionRequests()).toEqual([]);
    expect(await storedRows(alice.id, account)).toEqual(await brokerRows(account));
  });

  it('moves the checkpoint over a range the filter answers empty: the next sync asks nothing', async () => {
    const account = first();
    const before = Number(sim.state.lastTransactionID(account));
    const { instrument } = sim.state.trades(account, 'OPEN')[0]!;
    const trade = sim.openTrade(account, { instrument, units: 1000 }); // a market order and its fill, no stop
    sim.closeTrade(account, trade.id);
    const last = sim.state.lastTransactionID(account);
    expect(Number(last)).toBeGreaterThanOrEqual(before + 4);
    const stored = await storedRows(alice.id, account);
    sim.requestLog.length = 0;
    await syncOk(alice.token);
    const asked = transactionRequests();
    expect(asked.map((r) => [r.path.split('/')[3], r.query.from, r.query.to, r.query.type])).toEqual([
      [account, String(before + 1), last, ASKED],
    ]);
    expect(await storedRows(alice.id, account)).toEqual(stored);
    const checkpoint = await testDb.db.kysely
      .selectFrom('broker_accounts')
      .select('transactions_through_id')
      .where('user_id', '=', alice.id)
      .where('account_key', '=', `oanda:fxpractice:${account}`)
      .executeTakeFirstOrThrow();
    expect(checkpoint.transactions_through_id).toBe(last);
    sim.requestLog.length = 0;
    await syncOk(alice.token);
    expect(transactionRequests()).toEqual([]);
  });

  it('records NAV, balance and unrealized P/L per account at each sync, one row per sync', async () => {
    const samples = () =>
      testDb.db.kysely
        .selectFrom('equity_samples')
        .selectAll()
        .where('user_id', '=', alice.id)
        .orderBy('time')
        .execute();
    clock += 3_600_000; // the book moves: unrealized P/L and NAV change
    expect((await get(alice.token, '/api/v1/account/sync_account')).statusCode).toBe(200);
    await syncOk(alice.token);
    // Every sync of this test ran within a minute on the app's clock: one sync's sample per account, the latest.
    const rows = await samples();
    expect(rows).toHaveLength(2);
    for (const account of [first(), second()]) {
      const summary = sim.state.summary(account);
      expect(rows.find((r) => r.account_key === `oanda:fxpractice:${account}`)).toMatchObject({
        nav: summary.NAV,
        balance: summary.balance,
        unrealized_pl: summary.unrealizedPL,
      });
    }
    // Syncs a minute or more apart keep a sample each; one within a minute replaces the one before.
    const repo = createAccountTransactionRepository(testDb.db.kysely);
    const key = 'oanda:fxpractice:spacing';
    const at = (time: string, nav: string) => ({ account_key: key, time, nav, balance: '1', unrealized_pl: '0' });
    await repo.recordSample(alice.id, at('2025-10-03T10:00:00.000000000Z', '1'));
    await repo.recordSample(alice.id, at('2025-10-03T10:01:00.000000000Z', '2'));
    await repo.recordSample(alice.id, at('2025-10-03T10:01:30.000000000Z', '3'));
    expect((await repo.samples(alice.id, key)).map((s) => [s.time.slice(11, 19), s.nav])).toEqual([
      ['10:00:00', '1'],
      ['10:01:30', '3'],
    ]);
  });

  it("20 syncs killed at random requests, then one run to its end, leave exactly the broker's transactions", async () => {
    const bob = await connected('bob');
    let seed = 20251003;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let killed = 0;
    for (let run = 0; run < 20; run++) {
      if (run % 3 === 1) sim.transferFunds(second(), run % 2 ? '125.25' : '-40', `run ${run}`);
      if (run % 3 === 2) {
        const open = sim.state.trades(first(), 'OPEN')[run % 2]!;
        sim.setTakeProfit(
          first(),
          open.id,
          (Number(open.price) * (open.initialUnits.startsWith('-') ? 0.98 : 1.02)).toFixed(3),
        );
      }
      let n = 0;
      const at = 1 + Math.floor(random() * 12);
      const match = () => ++n === at;
      if (random() < 0.5) sim.faults.fail(1, 500, { match });
      else sim.faults.cut(1, { match });
      const res = await get(bob.token, `/api/v1/trade/sync_trade${run % 5 === 4 ? '?full=true' : ''}`);
      sim.faults.reset();
      if (res.statusCode !== 200) killed += 1;
    }
    expect(killed).toBeGreaterThanOrEqual(12);
    await syncOk(bob.token);
    for (const account of [first(), second()])
      expect(await storedRows(bob.id, account), account).toEqual(await brokerRows(account));
    // The first stops came from the store: the same as those of a user synced without a failure.
    const stops = (userId: string) =>
      testDb.db.kysely
        .selectFrom('trades')
        .select(['account_key', 'trade_id', 'initial_stop_loss_price'])
        .where('user_id', '=', userId)
        .orderBy('account_key')
        .orderBy('trade_id')
        .execute();
    const carol = await connected('carol');
    await syncOk(carol.token);
    const bobs = await stops(bob.id);
    expect(bobs.filter((s) => s.initial_stop_loss_price !== null).length).toBeGreaterThan(300);
    expect(bobs).toEqual(await stops(carol.id));
  });
});

describe('GET /api/v1/money/get_cash_flows', () => {
  let dana: { token: string; id: string; username: string };
  let erin: { token: string; id: string; username: string };
  const MT_KEY = 'metatrader:Broker-Demo:5550001';

  beforeAll(async () => {
    dana = await connected('dana');
    await syncOk(dana.token);
    erin = await connected('erin');
    const trading = createTradingService({
      db: testDb.db.kysely,
      oanda: {} as never,
      settings: { oandaCredentials: () => Promise.resolve(undefined) },
      now: () => new Date(NOW),
    });
    const op = (ticket: string, type: string, amount: string, serverTime: string) =>
      importedOperation({ ticket, type, amount, comment: `${type} ${ticket}`, serverTime });
    await trading.storeImport(
      dana.id,
      importedAccount({ login: '5550001', currency: 'EUR', balance: '1000.00' }),
      [],
      [
        op('1', 'balance', '1500.00', '2025-01-02T09:00:00'),
        op('2', 'balance', '-200.10', '2025-01-03T09:00:00'),
        op('3', 'credit', '300.00', '2025-01-04T09:00:00'),
        op('4', 'bonus', '25.00', '2025-01-05T09:00:00'),
        op('5', 'correction', '-0.35', '2025-01-06T09:00:00'),
        // MT5's service deal types: a broker's charge and commission apart from a trade are fees; interest is not.
        op('6', 'charge', '-15.00', '2025-01-07T09:00:00'),
        op('7', 'Daily commission', '-2.40', '2025-01-08T09:00:00'),
        op('8', 'interest rate', '0.12', '2025-01-09T09:00:00'),
      ],
    );
  });

  const flows = async (token: string, query = '') => {
    const res = await get(token, `/api/v1/money/get_cash_flows${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CashFlowsResponse>().data;
  };

  it("lists an OANDA account's transfers and financing, and an import's balance operations, oldest first", async () => {
    const account = sim.accountIds[0]!;
    const oanda = await flows(dana.token, `?accountId=${account}`);
    const broker = (await brokerRows(account)).filter((r) => r[1] === 'TRANSFER_FUNDS' || r[1] === 'DAILY_FINANCING');
    expect(oanda.map((f) => [f.type, f.amount])).toEqual(
      broker.map((r) => [
        r[1] === 'DAILY_FINANCING' ? 'financing' : String(r[2]).startsWith('-') ? 'withdrawal' : 'deposit',
        r[2],
      ]),
    );
    expect(oanda.find((f) => f.comment === 'Top-up')).toMatchObject({
      accountId: account,
      type: 'deposit',
      amount: '2500.5000',
      currency: 'USD',
    });
    expect(oanda.find((f) => f.comment === 'Payout')).toMatchObject({ type: 'withdrawal', amount: '-1000.0000' });
    expect(oanda.every((f) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/.test(f.time))).toBe(true);
    expect([...oanda.map((f) => f.time)].sort()).toEqual(oanda.map((f) => f.time));

    const mt = await flows(dana.token, '?platform=metatrader');
    expect(mt.map((f) => [f.accountId, f.type, f.amount, f.currency])).toEqual([
      [MT_KEY, 'deposit', '1500.00', 'EUR'],
      [MT_KEY, 'withdrawal', '-200.10', 'EUR'],
      [MT_KEY, 'credit', '300.00', 'EUR'],
      [MT_KEY, 'adjustment', '25.00', 'EUR'],
      [MT_KEY, 'adjustment', '-0.35', 'EUR'],
      [MT_KEY, 'fee', '-15.00', 'EUR'],
      [MT_KEY, 'fee', '-2.40', 'EUR'],
      [MT_KEY, 'adjustment', '0.12', 'EUR'],
    ]);
    // Every platform without a filter; bounded by time (inclusive, at the stored time's nanoseconds).
    const all = await flows(dana.token);
    expect(all.length).toBe(mt.length + (await flows(dana.token, '?platform=oanda')).length);
    expect(
      await flows(
        dana.token,
        `?accountId=${encodeURIComponent(MT_KEY)}&from=2025-01-03T09:00:00Z&to=2025-01-05T09:00:00Z`,
      ),
    ).toHaveLength(3);
    const firstFlow = oanda[0]!;
    expect(
      (await flows(dana.token, `?accountId=${account}&from=${firstFlow.time}&to=${firstFlow.time}`)).length,
    ).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad inputs with a message that says what to fix', async () => {
    const bad = async (query: string, says: RegExp) => {
      const res = await get(dana.token, `/api/v1/money/get_cash_flows${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ success: boolean; message: string }>()).toMatchObject({ success: false });
      expect(res.json<{ message: string }>().message, query).toMatch(says);
    };
    await bad('?from=yesterday', /from must be an ISO-8601 date or time/);
    await bad('?to=2025-13-45', /to must be an ISO-8601 date or time/);
    await bad('?from=2025-02-01&to=2025-01-01', /from must not be after to/);
    await bad('?platform=mt5', /platform must be oanda or metatrader/);
    await bad(`?accountId=${'x'.repeat(201)}`, /accountId is too long/);
    await bad('?accountId=', /accountId must not be empty/);
  });

  it("shows a user only their own accounts' cash flows", async () => {
    expect(await flows(erin.token)).toEqual([]);
    for (const named of [sim.accountIds[0]!, MT_KEY]) {
      const res = await get(erin.token, `/api/v1/money/get_cash_flows?accountId=${encodeURIComponent(named)}`);
      expect(res.statusCode).toBe(404);
      expect(res.json<{ message: string }>().message).toMatch(/No account of yours has the key or login/);
    }
    // An account of another platform than asked is not found either.
    const res = await get(
      dana.token,
      `/api/v1/money/get_cash_flows?accountId=${encodeURIComponent(MT_KEY)}&platform=oanda`,
    );
    expect(res.statusCode).toBe(404);
    expect((await get(erin.token, '/api/v1/money/get_cash_flows')).statusCode).toBe(200);
    expect((await t.call(undefined, { method: 'GET', url: '/api/v1/money/get_cash_flows' })).statusCode).toBe(401);
  });
});
