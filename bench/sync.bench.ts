/*
 * A full trade sync of 10,000 trades from the v20 simulator on loopback, against the time of merely
 * fetching the same pages with the same OANDA client. Goal: sync / fetch ≤ 1.2
 * (docs/decisions/018-trade-write-path.md).
 * Then a re-sync with no new transaction, with the transaction store's part (docs/decisions/022-transaction-store.md:
 * the catch-up from the stored checkpoint and the equity sample) against the same sync without it, taking turns on
 * the same user. Goal: the store adds ≤ 5 %.
 *
 * The simulator runs in a child process; the app and the baseline client share this one, as the server would.
 * Fetch and sync repetitions alternate so that a noisy neighbour slows both rather than one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { TradeSyncResult } from '@pipsense/contract';
import { createOandaClient, type OandaApi } from '../apps/server/src/integrations/oanda/oanda-client';
import type { WireTrade } from '../apps/server/src/integrations/oanda/wire-schemas';
import { createDb } from '../apps/server/src/db/client';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { userIdOf } from '../apps/server/src/test/seed-trades';
import { tradeRecord } from '../apps/server/src/modules/trading/broker-data';
import { TRANSACTION_FILTER } from '../apps/server/src/modules/trading/account-transactions';
import { createAccountTransactionRepository } from '../apps/server/src/modules/trading/account-transaction.repository';
import { createBrokerAccountRepository } from '../apps/server/src/modules/trading/broker-account.repository';
import { syncTrades, type TradeSyncDeps } from '../apps/server/src/modules/trading/trade-sync.service';
import { createTradeRepository } from '../apps/server/src/modules/trading/trade.repository';
import { createBenchApp } from './support/bench-app';
import { startSimProcess } from './support/sim-process';
import { cpuMs, goal, heading, median, runBench, spread, timed } from './support/stats';

const ACCOUNTS = 2;
const TRADES_PER_ACCOUNT = 5_000;
const REPS = 7;
const GOAL_RATIO = 1.2;
/** Re-syncs with nothing new, each way (with and without the transaction store), taking turns. */
const QUIET_PAIRS = 40;
const QUIET_GOAL = 1.05;

type Pages = Array<{ accountId: string; trades: WireTrade[] }>;

async function collectPages(api: OandaApi): Promise<Pages> {
  const pages: Pages = [];
  for (const account of await api.listAccounts())
    for await (const page of api.tradePages(account.id, { state: 'ALL' }))
      pages.push({ accountId: account.id, trades: page.trades });
  return pages;
}

/**
 * The sync's write stage on its own, in a database of its own: each page mapped to rows and upserted in its own
 * transaction, for a new user each run (as a first sync is).
 */
async function createWriteStage(pages: Pages) {
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-bench-writes-'));
  const db = createDb({ dataDir: dir });
  await migrateToLatest(db);
  // No users or accounts rows are needed to measure the trade writes (one connection: the pragma holds).
  await sql`PRAGMA foreign_keys = OFF`.execute(db.kysely);
  const trades = createTradeRepository(db.kysely);
  let run = 0;
  return {
    async write() {
      run += 1;
      for (const page of pages)
        await trades.write(
          `bench-writer-${run}`,
          page.accountId,
          page.trades.map((t) => tradeRecord(t, 'demo')),
          new Date().toISOString(),
          { fresh: true },
        );
    },
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A re-sync of a synced user when the broker has no new transaction (its lastTransactionID is the stored
 * checkpoint): the trade sync itself (trade-sync.service.ts, the route's work without its HTTP and job bookkeeping,
 * which would only dilute the ratio), once as the app runs it and once with the transaction store's part taken out:
 * its equity sample not written, its catch-up (no request when nothing is new) given an OANDA API whose transaction
 * ranges are empty. The two take turns, each first every other time; the ratio is the median of the pairs'.
 */
async function quietResync(db: ReturnType<typeof createDb>, api: OandaApi, userId: string): Promise<void> {
  heading(
    `re-sync with nothing new: with the transaction store's part and without it, ${QUIET_PAIRS} pairs taking turns`,
  );
  const transactions = createAccountTransactionRepository(db.kysely);
  const deps: TradeSyncDeps = {
    trades: createTradeRepository(db.kysely),
    accounts: createBrokerAccountRepository(db.kysely),
    transactions,
    now: () => new Date(),
  };
  const without: TradeSyncDeps = { ...deps, transactions: { ...transactions, recordSample: () => Promise.resolve() } };
  const apiWithout: OandaApi = { ...api, transactionRanges: async function* () {} };
  const credentials = { accessToken: 'bench', accountId: '', mode: 'demo' as const };
  // Wall time, and this process's CPU (every thread: the writer's too; the simulator's work is the same both ways).
  const run = async (into: { ms: number[]; cpu: number[] }, withStore: boolean) => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const result = await syncTrades(withStore ? deps : without, withStore ? api : apiWithout, userId, credentials);
    into.ms.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    into.cpu.push((used.user + used.system) / 1000);
    if (result.created !== 0 || result.full) throw new Error(`a quiet re-sync created ${result.created} trades`);
  };
  const withStore = { ms: [] as number[], cpu: [] as number[] };
  const withoutStore = { ms: [] as number[], cpu: [] as number[] };
  const scratch = { ms: [] as number[], cpu: [] as number[] };
  // Warm-up, then what one quiet re-sync calls of the OANDA API (each call of a method, a page reader once).
  await run(scratch, true);
  await run(scratch, false);
  const called = new Map<string, number>();
  const counting = Object.fromEntries(
    Object.entries(api).map(([name, method]) => [
      name,
      (...args: unknown[]) => {
        called.set(name, (called.get(name) ?? 0) + 1);
        return (method as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as OandaApi;
  await syncTrades(deps, counting, userId, credentials);
  console.log(`one quiet re-sync calls: ${[...called].map(([name, n]) => `${name} ×${n}`).join(', ')}`);
  if (called.has('transactionRanges')) throw new Error('a re-sync with nothing new read transactions');
  for (let pair = 0; pair < QUIET_PAIRS; pair++) {
    const order = pair % 2 === 0 ? [true, false] : [false, true];
    for (const store of order) await run(store ? withStore : withoutStore, store);
  }
  const pairs = (a: number[], b: number[]) => median(a.map((x, i) => x / b[i]!));
  const ratio = pairs(withStore.ms, withoutStore.ms);
  const cpuRatio = pairs(withStore.cpu, withoutStore.cpu);
  console.log(`with the transaction store:       ${spread(withStore.ms, 1)}; CPU ${spread(withStore.cpu, 1)}`);
  console.log(`without (no sample, no catch-up): ${spread(withoutStore.ms, 1)}; CPU ${spread(withoutStore.cpu, 1)}`);
  console.log(
    `with ÷ without, median of pairs: wall time ${ratio.toFixed(3)}, this process's CPU ${cpuRatio.toFixed(3)}`,
  );
  goal(
    're-sync with nothing new, with ÷ without the transaction store (wall, median of pairs)',
    ratio.toFixed(3),
    ratio <= QUIET_GOAL,
    `≤ ${QUIET_GOAL}`,
  );
}

runBench(async () => {
  const started = performance.now();
  const sim = await startSimProcess({ accounts: ACCOUNTS, tradesPerAccount: TRADES_PER_ACCOUNT });
  console.log(
    `simulator pid ${sim.pid} at ${sim.url}: ${ACCOUNTS} accounts × ${TRADES_PER_ACCOUNT} trades ` +
      `(ready in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-bench-sync-'));
  const db = createDb({ dataDir: dir });
  const bench = await createBenchApp({ OANDA_PRACTICE_URL: sim.url, OANDA_LIVE_URL: 'http://127.0.0.1:9' }, { db });
  // The baseline client has the app's defaults (2 keep-alive connections, next page prefetched).
  const client = createOandaClient({ practiceUrl: sim.url, liveUrl: 'http://127.0.0.1:9' });
  try {
    const api = client.forCredentials({ accessToken: sim.token, mode: 'demo' });

    // Exactly the requests a full sync of every account makes, as concurrently as it makes them: the account list,
    // then both accounts at once, each its summary, then its transactions by id range (the transaction store,
    // docs/decisions/022-transaction-store.md) beside every trade page.
    const fetchAll = async () => {
      let trades = 0;
      await Promise.all(
        (await api.listAccounts()).map(async (account) => {
          const { lastTransactionID } = await api.accountSummary(account.id);
          const stops = (async () => {
            const ranges = api.transactionRanges(account.id, {
              throughId: lastTransactionID ?? '0',
              types: TRANSACTION_FILTER,
            });
            for await (const _ of ranges);
          })();
          for await (const page of api.tradePages(account.id, { state: 'ALL' })) trades += page.trades.length;
          await stops;
        }),
      );
      return trades;
    };

    const sync = async (token: string, query = '') => {
      const res = await bench.call(token, { method: 'GET', url: `/api/v1/trade/sync_trade${query}` });
      if (res.statusCode !== 200) throw new Error(`sync_trade answered ${res.statusCode}: ${res.body}`);
      return res.json<{ message: string; data: TradeSyncResult }>();
    };
    const usernames = new Map<string, string>();
    const connectedUser = async () => {
      const { token, username } = await bench.oandaUser({ oanda: { accessToken: sim.token }, sync: 'none' }, 'sync');
      usernames.set(token, username);
      return token;
    };

    // Warm-up: JIT, keep-alive connections, SQLite page cache.
    const warmFetched = await fetchAll();
    const writeStage = await createWriteStage(await collectPages(api));
    await writeStage.write();
    const warm = await sync(await connectedUser());
    console.log(`warm-up: fetched ${warmFetched} trades; sync said "${warm.message}"`);
    if (warmFetched !== ACCOUNTS * TRADES_PER_ACCOUNT || warm.data.trades !== warmFetched)
      throw new Error(
        `expected ${ACCOUNTS * TRADES_PER_ACCOUNT} trades, fetched ${warmFetched}, synced ${warm.data.trades}`,
      );

    heading(
      `full sync of a new user vs fetching the same pages (and, to explain the gap, writing them alone), ` +
        `${REPS} repetitions, interleaved`,
    );
    const fetchMs: number[] = [];
    const syncMs: number[] = [];
    const writeMs: number[] = [];
    const tokens: string[] = [];
    // CPU each stage used: this process (the app or the baseline client, every thread: the writer thread too) and
    // the simulator answering it. On a machine of few cores their sum bounds how far the stages can overlap.
    const cpu = { fetch: [] as number[], sync: [] as number[] };
    const withCpu = async (into: number[], work: () => Promise<void>) => {
      const own = process.cpuUsage();
      const sim0 = cpuMs(sim.pid);
      await work();
      const used = process.cpuUsage(own);
      const sim1 = cpuMs(sim.pid);
      into.push((used.user + used.system) / 1000 + sim1.user + sim1.system - sim0.user - sim0.system);
    };
    for (let rep = 0; rep < REPS; rep++) {
      const token = await connectedUser();
      tokens.push(token);
      const stages = [
        () => withCpu(cpu.fetch, async () => void fetchMs.push((await timed(fetchAll)).ms)),
        () =>
          withCpu(cpu.sync, async () => {
            const { ms, value } = await timed(() => sync(token));
            if (value.data.created !== warmFetched) throw new Error(`sync created ${value.data.created} trades`);
            syncMs.push(ms);
          }),
        async () => writeMs.push((await timed(() => writeStage.write())).ms),
      ];
      // Rotate the order so that none of the three always runs first (or right after a sync's writes).
      for (let k = 0; k < stages.length; k++) await stages[(rep + k) % stages.length]!();
      console.log(
        `  rep ${rep + 1}: fetch ${fetchMs.at(-1)!.toFixed(0)} ms, sync ${syncMs.at(-1)!.toFixed(0)} ms, ` +
          `ratio ${(syncMs.at(-1)! / fetchMs.at(-1)!).toFixed(2)}; writes alone ${writeMs.at(-1)!.toFixed(0)} ms; ` +
          `CPU (this process + simulator): fetch ${cpu.fetch.at(-1)!.toFixed(0)} ms, sync ${cpu.sync.at(-1)!.toFixed(0)} ms`,
      );
    }
    await writeStage.close();
    const fetchMedian = median(fetchMs);
    const syncMedian = median(syncMs);
    // Each sync is compared with the fetch run next to it, which saw the same neighbours on the machine.
    const ratio = median(syncMs.map((t, i) => t / fetchMs[i]!));
    console.log(`fetch only (list + summaries + transactions + trade pages): ${spread(fetchMs, 0)}`);
    console.log(`full sync (GET /api/v1/trade/sync_trade):    ${spread(syncMs, 0)}`);
    console.log(`sync rate: ${Math.round(warmFetched / (syncMedian / 1000)).toLocaleString('en-US')} trades/s`);
    console.log(`fetch rate: ${Math.round(warmFetched / (fetchMedian / 1000)).toLocaleString('en-US')} trades/s`);
    console.log(`map + upsert the same pages alone, no network: ${spread(writeMs, 0)}`);
    console.log(
      `  fetch + writes = ${(fetchMedian + median(writeMs)).toFixed(0)} ms against the sync's ${syncMedian.toFixed(0)} ms ` +
        '(the writes run on the writer thread beside the fetching; both share the cores with the simulator)',
    );
    console.log(`ratio of the medians: ${(syncMedian / fetchMedian).toFixed(2)}`);
    // However well fetching and writing overlap, a sync cannot take less wall time than its CPU spread over every
    // core (the simulator's included, as it shares them); this is that floor, over the fetch it is compared with.
    const cores = availableParallelism();
    const floor = median(cpu.sync.map((c, i) => c / cores / fetchMs[i]!));
    console.log(
      `CPU, this process + simulator: fetch ${spread(cpu.fetch, 0)}; sync ${spread(cpu.sync, 0)}\n` +
        `  on ${cores} cores the sync cannot finish in less than its CPU ÷ ${cores}: ${floor.toFixed(2)} of the fetch's wall time (median of pairs)`,
    );
    goal('sync / fetch (median of paired repetitions)', ratio.toFixed(2), ratio <= GOAL_RATIO, `≤ ${GOAL_RATIO}`);

    heading('re-syncs of an already synced user');
    const fullAgainMs: number[] = [];
    const incrementalMs: number[] = [];
    let fullMessage = '';
    let incrementalMessage = '';
    for (const token of tokens.slice(0, 3)) {
      const full = await timed(() => sync(token, '?full=true'));
      fullAgainMs.push(full.ms);
      fullMessage = full.value.message;
      const incremental = await timed(() => sync(token));
      incrementalMs.push(incremental.ms);
      incrementalMessage = incremental.value.message;
    }
    console.log(`full=true over stored rows: ${spread(fullAgainMs, 0)}  ("${fullMessage}")`);
    console.log(`  ratio to fetch: ${(median(fullAgainMs) / fetchMedian).toFixed(2)}`);
    console.log(`incremental (nothing new): ${spread(incrementalMs, 1)}  ("${incrementalMessage}")`);

    await quietResync(db, api, await userIdOf(db.kysely, usernames.get(tokens[0]!)!));
  } finally {
    await client.close();
    await bench.close();
    await db.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
