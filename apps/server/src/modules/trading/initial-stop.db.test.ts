// The initial stop-loss in the sync: the first stop-loss order transaction of each trade, stored once and kept.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { createOandaClient, type OandaClient } from '../../integrations/oanda/oanda-client';
import { seededAccount, startLedgerServer, type LedgerServer } from '../../test/oanda-ledger-server';
import { createTestDb } from '../../test/harness';
import { startOandaSim } from '@pipsense/oanda-sim';
import { createBrokerAccountRepository } from './broker-account.repository';
import { createAccountTransactionRepository } from './account-transaction.repository';
import { syncTrades } from './trade-sync.service';
import { createTradeRepository } from './trade.repository';

const A = '101-004-1000001-001';
const USER = 'user-initial-stop';

let ledger: LedgerServer;
let client: OandaClient;
let testDb: { db: Db; close(): Promise<void> };

beforeAll(async () => {
  ledger = await startLedgerServer([]);
  client = createOandaClient({ practiceUrl: ledger.url, liveUrl: 'http://127.0.0.1:9', retries: 0 });
});
afterAll(async () => {
  await client.close();
  await ledger.stop();
});
beforeEach(async () => {
  testDb = await createTestDb();
  await migrateToLatest(testDb.db);
  const at = '2025-01-01T00:00:00.000Z';
  await testDb.db.kysely
    .insertInto('users')
    .values({
      id: USER,
      username: 'stop',
      username_key: 'stop',
      email: 's@x.io',
      password_hash: 'x',
      created_at: at,
      updated_at: at,
    })
    .execute();
});
afterEach(async () => {
  await testDb.close();
  ledger.requests.length = 0;
});

function sync(
  full = false,
  on: { client: OandaClient; token: string; accountId: string; now?: string } = { client, token: '', accountId: A },
) {
  const kysely = testDb.db.kysely;
  const deps = {
    accounts: createBrokerAccountRepository(kysely),
    trades: createTradeRepository(kysely),
    transactions: createAccountTransactionRepository(kysely),
    now: () => new Date(on.now ?? '2024-06-01T00:00:00.000Z'),
  };
  const token = on.token || ledger.token;
  const api = on.client.forCredentials({ accessToken: token, mode: 'demo' });
  return syncTrades(deps, api, USER, { accessToken: token, mode: 'demo', accountId: on.accountId }, { full });
}

async function initialStops(): Promise<Record<string, string | null>> {
  const rows = await testDb.db.kysely
    .selectFrom('trades')
    .select(['trade_id', 'initial_stop_loss_price'])
    .where('user_id', '=', USER)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.trade_id, r.initial_stop_loss_price]));
}

describe('initial stop-loss', () => {
  it('is the first stop-loss order of each trade: on fill, added later, or by distance; none stays null', async () => {
    // Trades 100 (long at 141.000), 103 (short at 141.030), 106 (long at 141.060), 109 (short at 141.090), 112 (open).
    const account = seededAccount(A, 4, 1);
    account.stops = [
      { id: 101, tradeID: '100', price: '140.500', reason: 'ON_FILL' },
      { id: 150, tradeID: '100', price: '140.800', reason: 'REPLACEMENT' },
      { id: 160, tradeID: '103', price: '141.500', reason: 'CLIENT_ORDER' },
      { id: 107, tradeID: '106', distance: '0.200', reason: 'ON_FILL' },
      { id: 110, tradeID: '109', distance: '0.100', reason: 'ON_FILL', type: 'GUARANTEED_STOP_LOSS_ORDER' },
    ];
    account.lastTransactionID = 160;
    ledger.accounts.clear();
    ledger.accounts.set(A, account);
    const byId = new Map(account.trades.map((t) => [t.id, t]));
    expect(byId.get('106')!['price']).toBe('141.060');
    expect(byId.get('109')!['price']).toBe('141.090');
    expect(byId.get('109')!['initialUnits']).toMatch(/^-/);
    expect(byId.get('106')!['initialUnits']).not.toMatch(/^-/);

    const result = await sync();
    expect(result.created).toBe(5);
    expect(await initialStops()).toEqual({
      '100': '140.500', // the stop on fill, not its later replacement
      '103': '141.500', // added after the trade opened
      '106': '140.860', // long: 141.060 − 0.200
      '109': '141.190', // short: 141.090 + 0.100 (a guaranteed stop)
      '112': null, // no stop ever: "no initial stop"
    });
    // One read of the transaction store beside the trade pages: ids 1 to 160 in one idrange request, of the
    // stored types (docs/decisions/022-transaction-store.md).
    const paths = ledger.requests.map((r) => r.path.split('/').slice(4).join('/'));
    expect(paths.filter((p) => p.startsWith('transactions'))).toEqual(['transactions/idrange']);
    const asked = ledger.requests.find((r) => r.path.endsWith('/transactions/idrange'))!.query;
    expect(asked).toMatchObject({ from: '1', to: '160' });
    expect(asked['type']!.split(',')).toEqual(
      expect.arrayContaining(['STOP_LOSS_ORDER', 'GUARANTEED_STOP_LOSS_ORDER']),
    );
  });

  it('learns a first stop in an incremental sync and never replaces one, also across a full re-sync', async () => {
    const account = seededAccount(A, 1, 1); // 100 closed, 103 open
    account.stops = [{ id: 101, tradeID: '100', price: '140.500' }];
    ledger.accounts.clear();
    ledger.accounts.set(A, account);
    await sync();
    expect(await initialStops()).toEqual({ '100': '140.500', '103': null });

    // The open trade gets its first stop, then another one; the closed trade's stop history is rewritten.
    account.stops.push({ id: 200, tradeID: '103', price: '141.100', reason: 'CLIENT_ORDER' });
    account.stops.push({ id: 201, tradeID: '103', price: '141.000', reason: 'REPLACEMENT' });
    account.lastTransactionID = 201;
    ledger.touch(A, '103', { stopLossOrder: { id: '201', price: '141.000', state: 'PENDING' } });
    ledger.requests.length = 0;
    const incremental = await sync();
    expect(incremental.full).toBe(false);
    // Only what came after the last transaction read: ids 107 to 201.
    expect(
      ledger.requests.filter((r) => r.path.includes('/transactions')).map((r) => [r.query['from'], r.query['to']]),
    ).toEqual([['107', '202']]); // the stop's transactions, and the touch's own
    expect(await initialStops()).toEqual({ '100': '140.500', '103': '141.100' });

    // A full re-sync re-reads the trades, not the transactions already stored (OANDA's history is what it is; a
    // different first stop served now changes nothing).
    account.stops = [{ id: 101, tradeID: '100', price: '140.100' }];
    ledger.requests.length = 0;
    const full = await sync(true);
    expect(full.created).toBe(0);
    expect(ledger.requests.some((r) => r.path.includes('/transactions'))).toBe(false);
    expect(await initialStops()).toEqual({ '100': '140.500', '103': '141.100' });

    // An incremental sync with nothing new asks for no transactions at all.
    ledger.requests.length = 0;
    await sync();
    expect(ledger.requests.some((r) => r.path.includes('/transactions'))).toBe(false);
  });

  it('does not hold the pages of a full sync for the transaction read: written first, first stops filled in after', async () => {
    const account = seededAccount(A, 4, 1);
    account.stops = [
      { id: 101, tradeID: '100', price: '140.500', reason: 'ON_FILL' },
      { id: 107, tradeID: '106', distance: '0.200', reason: 'ON_FILL' },
    ];
    ledger.accounts.clear();
    ledger.accounts.set(A, account);
    const kysely = testDb.db.kysely;
    const version = async () =>
      (await kysely.selectFrom('data_versions').select('version').where('user_id', '=', USER).executeTakeFirst())
        ?.version ?? 0;
    // The transaction read answers only once a page is handed to the database (or after 10 s: a sync that waits
    // for it before writing never hands one over).
    let pageHanded!: () => void;
    const handed = new Promise<void>((resolve) => (pageHanded = resolve));
    let versionAfterPage: number | undefined;
    const trades = createTradeRepository(kysely);
    const deps = {
      accounts: createBrokerAccountRepository(kysely),
      trades: {
        ...trades,
        write: async (...args: Parameters<typeof trades.write>) => {
          const writing = trades.write(...args);
          pageHanded();
          const counts = await writing;
          versionAfterPage ??= await version();
          return counts;
        },
      },
      transactions: createAccountTransactionRepository(kysely),
      now: () => new Date('2024-06-01T00:00:00.000Z'),
    };
    const base = client.forCredentials({ accessToken: ledger.token, mode: 'demo' });
    let writtenBeforeStops = false;
    const api = {
      ...base,
      async *transactionRanges(...args: Parameters<typeof base.transactionRanges>) {
        writtenBeforeStops = await Promise.race([
          handed.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
        ]);
        yield* base.transactionRanges(...args);
      },
    };

    const result = await syncTrades(deps, api, USER, { accessToken: ledger.token, mode: 'demo', accountId: A });
    expect(writtenBeforeStops, 'a page was handed to the database before the transactions were read').toBe(true);
    expect(result).toMatchObject({ created: 5, updated: 0 });
    expect(await initialStops()).toEqual({ '100': '140.500', '103': null, '106': '140.860', '109': null, '112': null });
    // Filling the stops in changed what is stored: the data version moved again after the page's own bump.
    expect(await version()).toBeGreaterThan(versionAfterPage!);
  });

  it('against the simulator: a mix of stops on fill, stops added later and none, each the first one', async () => {
    const sim = await startOandaSim({
      seed: 3,
      accounts: 1,
      tradesPerAccount: 300,
      now: () => Date.parse('2025-10-06T12:00:00Z'),
    });
    const simClient = createOandaClient({ practiceUrl: sim.url, liveUrl: 'http://127.0.0.1:9', retries: 0 });
    try {
      const accountId = sim.accountIds[0]!;
      // The account is over a year old: its whole history is read by id, 1000 ids a request, whatever its age.
      sim.requestLog.length = 0;
      await sync(false, { client: simClient, token: sim.token, accountId, now: '2025-10-07T12:00:00Z' });
      const asked = sim.requestLog.filter((r) => r.path.includes('/transactions'));
      const last = Number(sim.state.lastTransactionID(accountId));
      expect(asked.every((r) => r.path.endsWith('/transactions/idrange'))).toBe(true);
      expect(asked.map((r) => Number(r.query.to) - Number(r.query.from) + 1).reduce((a, b) => a + b, 0)).toBe(last);
      expect(asked).toHaveLength(Math.ceil(last / 1000));
      const stored = await initialStops();
      expect(Object.keys(stored)).toHaveLength(300);
      // The first stop-loss order per trade, read straight from the simulator's transaction log.
      const listing = await fetch(
        `${sim.url}/v3/accounts/${accountId}/transactions/sinceid?id=0&type=STOP_LOSS_ORDER`,
        {
          headers: { authorization: `Bearer ${sim.token}` },
        },
      ).then((r) => r.json() as Promise<{ transactions: Array<{ tradeID: string; price: string; reason: string }> }>);
      const first = new Map<string, { price: string; reason: string }>();
      for (const tx of listing.transactions) if (!first.has(tx.tradeID)) first.set(tx.tradeID, tx);
      const reasons = { ON_FILL: 0, CLIENT_ORDER: 0, none: 0 };
      for (const [id, price] of Object.entries(stored)) {
        const tx = first.get(id);
        expect(price, `trade ${id}`).toBe(tx ? tx.price : null);
        reasons[(tx?.reason ?? 'none') as keyof typeof reasons] += 1;
      }
      expect(reasons.ON_FILL).toBeGreaterThan(150);
      expect(reasons.CLIENT_ORDER).toBeGreaterThan(5);
      expect(reasons.none).toBeGreaterThan(5);
    } finally {
      await simClient.close();
      await sim.close();
    }
  });
});
