/*
 * The Overview from a snapshot. GET /api/v1/dashboard/metrics through the real app (app.inject: routing,
 * auth, the zod serializer included) on SQLite, for books of 4,500 and 100,000 synthetic trades seeded straight into
 * the app's `trades` table (as bench/analytics.bench.ts does):
 * - snapshot read: the unfiltered overview of an unchanged data version (goal ≤ 30 ms at any book size);
 * - recompute: the first view after the data version moved (the engine over every trade, stored as the snapshot);
 * - filtered views at 100,000 trades: one instrument, a date range, one account (goal ≤ 300 ms), from the book of
 *   the current data version this instance holds (modules/analytics/book-cache.ts); the first filtered view after a
 *   change, which reads the book, is printed beside them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { createDb } from '../apps/server/src/db/client';
import { bumpDataVersion } from '../apps/server/src/db/data-versions';
import {
  generateSyntheticTrades,
  SYNTHETIC_ACCOUNT_IDS,
  SYNTHETIC_NOW,
} from '../apps/server/src/test/synthetic-trades';
import { oandaAccount } from '../apps/server/src/modules/trading/account-key';
import { createBenchApp, type BenchApp } from './support/bench-app';
import { goal, heading, median, ms, runBench, spread } from './support/stats';
import { TRADE_COLUMNS, tradeRow } from './support/trade-rows';

const BOOKS = [4_500, 100_000];
const READS = 30;
const RECOMPUTES = 5;
const FILTERED_RUNS = 7;
const SNAPSHOT_GOAL_MS = 30;
const FILTERED_GOAL_MS = 300;

async function userIdOf(dbFile: string, username: string): Promise<string> {
  const sqlite = new SQLite(dbFile, { readonly: true });
  try {
    return (sqlite.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: string }).id;
  } finally {
    sqlite.close();
  }
}

/** `n` synthetic trades for the user, straight into the app's trades table (a connection of its own, WAL). */
function seed(dbFile: string, userId: string, n: number): string {
  const trades = generateSyntheticTrades(n, 7);
  const sqlite = new SQLite(dbFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  const insert = sqlite.prepare(
    `INSERT INTO trades (${TRADE_COLUMNS}) VALUES (${TRADE_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`,
  );
  const stamp = SYNTHETIC_NOW.toISOString();
  const account = sqlite.prepare(
    `INSERT INTO broker_accounts (id, user_id, account_key, platform, server, login, mode, currency, balance, nav,
      hedging_enabled, synced_at, version, created_at, updated_at)
     VALUES (?, ?, ?, 'oanda', ?, ?, 'demo', 'USD', '10000.0000', '10000.0000', 0, ?, 1, ?, ?)`,
  );
  sqlite.transaction(() => {
    for (const id of SYNTHETIC_ACCOUNT_IDS) {
      const identity = oandaAccount('demo', id);
      account.run(randomUUID(), userId, identity.account_key, identity.server, id, stamp, stamp, stamp);
    }
    for (const t of trades) insert.run(...tradeRow(t, userId, stamp));
  })();
  sqlite.exec('ANALYZE');
  sqlite.close();
  const counts = new Map<string, number>();
  for (const t of trades) counts.set(t.instrument, (counts.get(t.instrument) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

async function view(t: BenchApp, token: string, query = ''): Promise<{ ms: number; tradeCount: number }> {
  const start = performance.now();
  const res = await t.call(token, {
    method: 'GET',
    url: `/api/v1/dashboard/metrics?timeZone=America/New_York${query}`,
  });
  const elapsed = performance.now() - start;
  if (res.statusCode !== 200) throw new Error(`metrics answered ${res.statusCode}: ${res.body}`);
  return { ms: elapsed, tradeCount: res.json<{ data: { tradeCount: number } }>().data.tradeCount };
}

/** A fixed piece of CPU work, timed: how loaded the shared machine is during this run (context, not a goal). */
function yardstick(): number {
  const start = performance.now();
  let x = 0;
  for (let i = 0; i < 50_000_000; i++) x += i % 7;
  if (x < 0) console.log(x);
  return performance.now() - start;
}

runBench(async () => {
  console.log(`machine yardstick (5e7-step loop): ${ms(yardstick(), 0)}`);
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-bench-overview-'));
  const db = createDb({ dataDir: dir });
  const dbFile = join(dir, 'pipsense.db');
  const t = await createBenchApp({}, { db });
  const results: Array<{ n: number; read: number; recompute: number }> = [];
  let filtered: Array<{ label: string; runs: number[]; count: number; first: number }> = [];
  try {
    for (const n of BOOKS) {
      heading(`${n.toLocaleString('en-US')} trades (SQLite)`);
      const user = await t.user(`bench${n}`);
      const userId = await userIdOf(dbFile, user.username);
      const start = performance.now();
      const instrument = seed(dbFile, userId, n);
      await bumpDataVersion(db.kysely, userId, new Date().toISOString());
      console.log(`seeded in ${ms(performance.now() - start, 0)}`);

      const recompute: number[] = [];
      for (let i = 0; i < RECOMPUTES; i++) {
        await bumpDataVersion(db.kysely, userId, new Date().toISOString());
        const first = await view(t, user.token);
        if (first.tradeCount !== n) throw new Error(`expected ${n} trades, the overview counted ${first.tradeCount}`);
        recompute.push(first.ms);
      }
      console.log(`recompute (first view after the data version moved), ${RECOMPUTES} runs: ${spread(recompute)}`);

      const reads: number[] = [];
      for (let i = 0; i < READS; i++) reads.push((await view(t, user.token)).ms);
      console.log(`snapshot read (unchanged version), ${READS} runs: ${spread(reads)}`);
      results.push({ n, read: median(reads), recompute: median(recompute) });

      if (n === 100_000) {
        const from = new Date(SYNTHETIC_NOW.getTime() - 180 * 86_400_000).toISOString();
        const slices = [
          { label: `instrument ${instrument}`, query: `&instrument=${instrument}` },
          { label: 'last 180 days', query: `&from=${encodeURIComponent(from)}` },
          { label: 'the main account', query: `&accountId=${encodeURIComponent(SYNTHETIC_ACCOUNT_IDS[0])}` },
        ];
        filtered = [];
        for (const slice of slices) {
          const runs: number[] = [];
          let count = 0;
          // The first filtered view after a change reads the book of the new version (and computes the slice).
          await bumpDataVersion(db.kysely, userId, new Date().toISOString());
          const first = (await view(t, user.token, slice.query)).ms;
          for (let i = 0; i < FILTERED_RUNS; i++) {
            const r = await view(t, user.token, slice.query);
            runs.push(r.ms);
            count = r.tradeCount;
          }
          console.log(
            `filtered view, ${slice.label} (${count.toLocaleString('en-US')} trades): ${spread(runs)}; ` +
              `first after a change (reads the book): ${ms(first)}`,
          );
          filtered.push({ label: slice.label, runs, count, first });
        }
      }
    }

    console.log(`machine yardstick after the runs: ${ms(yardstick(), 0)}`);
    heading('goals');
    for (const r of results) {
      const n = r.n.toLocaleString('en-US');
      goal(`snapshot read, ${n} trades (median)`, ms(r.read), r.read <= SNAPSHOT_GOAL_MS, `≤ ${SNAPSHOT_GOAL_MS} ms`);
      console.log(
        `  recompute, ${n} trades (median): ${ms(r.recompute)}; read / recompute ${(r.read / r.recompute).toFixed(3)}`,
      );
    }
    for (const f of filtered) {
      const m = median(f.runs);
      goal(`filtered view at 100,000, ${f.label} (median)`, ms(m), m <= FILTERED_GOAL_MS, `≤ ${FILTERED_GOAL_MS} ms`);
      console.log(`  first after a change: ${ms(f.first)}; median / first ${(m / f.first).toFixed(3)}`);
    }
  } finally {
    await t.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
