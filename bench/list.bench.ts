/*
 * The trade list and the CSV export on 100,000 trades, in SQLite and PostgreSQL (the app's own tables,
 * built by its migrations, filled directly). Goals: a filtered, sorted page answers in < 50 ms (median, through the
 * trade views: count, page, tags of the page, risk figures), and the export of every trade streams without
 * holding them (resident memory growth, fresh processes), beside collecting every row first for comparison.
 * PostgreSQL runs when PIPSENSE_BENCH_PG_URL names a server (e.g. postgres://postgres@127.0.0.1:5432/postgres).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { build } from 'esbuild';
import { createDb, type Db } from '../apps/server/src/db/client';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { oandaAccount } from '../apps/server/src/modules/trading/account-key';
import { listVersionReader } from '../apps/server/src/db/data-versions';
import { createTradeViews, type TradeListRequest } from '../apps/server/src/modules/trade-views';
import type { EngineTrade } from '../apps/server/src/modules/analytics/engine';
import { generateSyntheticTrades, SYNTHETIC_NOW } from '../apps/server/src/test/synthetic-trades';
import { goal, heading, mb, median, ms, runBench, spread } from './support/stats';
import { repoRoot } from './support/sim-process';
import { TRADE_COLUMNS, tradeRow } from './support/trade-rows';

const serverPackage = JSON.parse(readFileSync(join(repoRoot, 'apps/server/package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

const N = 100_000;
const RUNS = 15;
const GOAL_MS = 50;
const GOAL_BYTES = 64 * 1024 * 1024;
const USER = 'bench-user';
const TAGS = { breakout: 'tag-breakout', pullback: 'tag-pullback', fomo: 'tag-fomo' };
const PLAYBOOKS = { london: 'pb-london', pullback: 'pb-pullback', news: 'pb-news' };
const STAMP = SYNTHETIC_NOW.toISOString();
const pgAdmin = process.env.PIPSENSE_BENCH_PG_URL;

/**
 * The journal: 1 in 10 trades tagged breakout, 1 in 7 pullback, 1 in 20 fomo; a note on 1 in 5. The playbooks: 1 in 4
 * trades on one of three playbooks (so 1 in 12 on each), of them a third followed every rule, a third broke one, a
 * third not reviewed.
 */
function journal(trades: readonly EngineTrade[]) {
  const tags: unknown[][] = [];
  const notes: unknown[][] = [];
  const reviews: unknown[][] = [];
  const books = Object.values(PLAYBOOKS);
  trades.forEach((t, i) => {
    const key = oandaAccount('demo', t.accountId).account_key;
    if (i % 10 === 0) tags.push([USER, key, t.tradeId, TAGS.breakout, STAMP]);
    if (i % 7 === 0) tags.push([USER, key, t.tradeId, TAGS.pullback, STAMP]);
    if (i % 20 === 3) tags.push([USER, key, t.tradeId, TAGS.fomo, STAMP]);
    if (i % 5 === 1)
      notes.push([USER, key, t.tradeId, i % 15 === 1 ? 'Chased it: FOMO again' : 'Followed the plan', 3, STAMP, STAMP]);
    if (i % 4 === 2) {
      const state = Math.floor(i / 4) % 3;
      const followed = state === 0 ? '["r1","r2"]' : state === 1 ? '["r1"]' : '[]';
      reviews.push([USER, key, t.tradeId, books[Math.floor(i / 12) % 3], state === 2 ? 0 : 1, '["r1","r2"]', followed]);
      reviews.at(-1)!.push(state === 2 ? null : state === 0 ? 1 : 0, STAMP);
    }
  });
  return { tags, notes, reviews };
}

function sqlSetup(trades: readonly EngineTrade[]) {
  const accounts = [...new Set(trades.map((t) => t.accountId))].map((login) => {
    const key = oandaAccount('demo', login).account_key;
    return [`acct-${login}`, USER, key, 'oanda', 'fxpractice', login, 'demo', STAMP, 0, STAMP, STAMP];
  });
  return {
    user: [USER, USER, USER, `${USER}@example.com`, 'x', STAMP, STAMP],
    accounts,
    trades: trades.map((t) => tradeRow(t, USER, STAMP)),
    tagRows: Object.entries(TAGS).map(([name, id]) => [
      id,
      USER,
      name === 'fomo' ? 'emotion' : 'setup',
      name,
      name,
      STAMP,
      STAMP,
    ]),
    playbookRows: Object.values(PLAYBOOKS).map((id) => [id, USER, id, '', '[]', '[]', null, STAMP, STAMP]),
    ...journal(trades),
  };
}
const INSERTS = {
  user: 'users (id, username, username_key, email, password_hash, created_at, updated_at)',
  accounts:
    'broker_accounts (id, user_id, account_key, platform, server, login, mode, synced_at, version, created_at, updated_at)',
  trades: `trades (${TRADE_COLUMNS})`,
  tagRows: 'journal_tags (id, user_id, kind, name, name_key, created_at, updated_at)',
  tags: 'trade_tags (user_id, account_key, trade_id, tag_id, created_at)',
  notes: 'trade_notes (user_id, account_key, trade_id, note, rating, created_at, updated_at)',
  playbookRows:
    'playbooks (id, user_id, name, description, instruments, sessions, default_risk_pct, created_at, updated_at)',
  reviews:
    'trade_reviews (user_id, account_key, trade_id, playbook_id, reviewed, rule_ids, followed_rule_ids, followed_all, updated_at)',
} as const;

async function fillSqlite(dir: string, data: ReturnType<typeof sqlSetup>) {
  const db = createDb({ dataDir: dir });
  await migrateToLatest(db);
  await db.close();
  const sqlite = new SQLite(join(dir, 'pipsense.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.transaction(() => {
    for (const [name, target] of Object.entries(INSERTS)) {
      const rows = name === 'user' ? [data.user] : (data[name as keyof typeof data] as unknown[][]);
      const insert = sqlite.prepare(`INSERT INTO ${target} VALUES (${rows[0]!.map(() => '?').join(', ')})`);
      for (const row of rows) insert.run(...row);
    }
  })();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.exec('ANALYZE');
  sqlite.close();
}

async function fillPostgres(url: string, data: ReturnType<typeof sqlSetup>) {
  const db = createDb({ dataDir: '', databaseUrl: url });
  await migrateToLatest(db);
  await db.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const [name, target] of Object.entries(INSERTS)) {
    const rows = name === 'user' ? [data.user] : (data[name as keyof typeof data] as unknown[][]);
    for (let i = 0; i < rows.length; i += 1000) {
      const batch = rows.slice(i, i + 1000);
      const width = batch[0]!.length;
      const tuples = batch.map((_, r) => `(${batch[0]!.map((__, c) => `$${r * width + c + 1}`).join(', ')})`);
      await client.query(`INSERT INTO ${target} VALUES ${tuples.join(', ')}`, batch.flat());
    }
  }
  // As autovacuum leaves a table in use (this server may run without it): statistics, and the visibility map that
  // lets a count read an index alone.
  await client.query('VACUUM ANALYZE');
  await client.end();
}

/** The pages measured; the goal holds for each. */
function pages(trades: readonly EngineTrade[]): Array<[string, TradeListRequest, number]> {
  const times = trades.map((t) => t.openTime).sort((a, b) => a - b);
  const from = new Date(times[Math.floor(times.length * 0.25)]!).toISOString();
  const to = new Date(times[Math.floor(times.length * 0.75)]!).toISOString();
  return [
    ['tag + date range, by P/L (desc)', { tag: [TAGS.breakout], from, to, sort: 'realizedPL', order: 'desc' }, 1],
    [
      'two tags + instrument, by P/L (asc)',
      { tag: [TAGS.fomo, TAGS.pullback], instrument: 'EUR_USD', sort: 'realizedPL', order: 'asc' },
      1,
    ],
    ['everything, by P/L (desc)', { sort: 'realizedPL', order: 'desc' }, 1],
    ['everything, newest first (the default), page 100', {}, 100],
    ['closed losers, by close time', { outcome: 'loss', sort: 'closeTime', order: 'desc' }, 1],
    ['note text "fomo" + date range', { q: 'fomo', from, to }, 1],
    ['has a note, short, by instrument', { hasNote: true, side: 'short', sort: 'instrument', order: 'asc' }, 1],
    ['one playbook, newest first', { playbookId: PLAYBOOKS.london }, 1],
    [
      'one playbook, broke a rule, by P/L (desc)',
      { playbookId: PLAYBOOKS.pullback, playbookReview: 'broke', sort: 'realizedPL', order: 'desc' },
      1,
    ],
    ['not reviewed + date range', { playbookReview: 'unreviewed', from, to }, 1],
  ];
}

async function measurePages(db: Db, trades: readonly EngineTrade[]) {
  const views = createTradeViews({ db: db.kysely, listVersionOf: listVersionReader(db.kysely), now: () => new Date() });
  const medians: Array<[string, number]> = [];
  for (const [label, filter, page] of pages(trades)) {
    const first = await views.tradePage(USER, { page, limit: 10 }, filter);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const start = performance.now();
      await views.tradePage(USER, { page, limit: 10 }, filter);
      times.push(performance.now() - start);
    }
    console.log(`${label}: ${spread(times)} — ${first.total.toLocaleString('en-US')} matching`);
    medians.push([label, median(times)]);
  }
  return medians;
}

interface ChildResult {
  mode: string;
  rows: number;
  bytes: number;
  ms: number;
  rssStart: number;
  peak: number;
  peakReset: boolean;
}

async function exportMemory(where: string): Promise<{ stream: ChildResult; all: ChildResult }> {
  // Beside node_modules, so that the native modules (better-sqlite3, pg) resolve from the bundle.
  const dir = join(repoRoot, 'node_modules/.cache/pipsense-bench');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'list-export-child.mjs');
  await build({
    entryPoints: [join(repoRoot, 'bench/support/list-export-child.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // As the server's own build: workspace packages are TypeScript source and get bundled; the rest stays external.
    external: Object.keys(serverPackage.dependencies).filter((name) => !name.startsWith('@pipsense/')),
    logLevel: 'warning',
  });
  const run = (mode: string) =>
    JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', outfile, mode, where, USER], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .at(-1)!,
    ) as ChildResult;
  return { stream: run('stream'), all: run('all') };
}

function reportExport(label: string, { stream, all }: { stream: ChildResult; all: ChildResult }) {
  const growth = (r: ChildResult) => Math.max(0, r.peak - r.rssStart);
  console.log(
    `streamed: ${stream.rows.toLocaleString('en-US')} rows, ${mb(stream.bytes)} of CSV in ${ms(stream.ms, 0)}; ` +
      `rss ${mb(stream.rssStart)} → peak ${mb(stream.peak)} (growth ${mb(growth(stream))})`,
  );
  console.log(
    `for comparison, every row collected first: rss ${mb(all.rssStart)} → peak ${mb(all.peak)} (growth ${mb(growth(all))})`,
  );
  if (stream.rows !== N) throw new Error(`the export wrote ${stream.rows} rows, not ${N}`);
  return goal(
    `${label}: export of ${N.toLocaleString('en-US')} trades, resident memory growth`,
    mb(growth(stream)),
    growth(stream) <= GOAL_BYTES,
    `≤ ${mb(GOAL_BYTES)}`,
  );
}

runBench(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-bench-list-'));
  let pgDrop: (() => Promise<void>) | undefined;
  try {
    heading(`${N.toLocaleString('en-US')} synthetic trades, 3 tags, notes on 1 in 5`);
    const trades = generateSyntheticTrades(N, 42);
    const data = sqlSetup(trades);
    const results: Array<[string, Array<[string, number]>, ReturnType<typeof reportExport>]> = [];

    heading('SQLite (file, WAL, the app schema and indexes)');
    let start = performance.now();
    await fillSqlite(dir, data);
    console.log(`filled in ${ms(performance.now() - start, 0)}`);
    const sqliteDb = createDb({ dataDir: dir });
    const sqliteMedians = await measurePages(sqliteDb, trades);
    await sqliteDb.close();
    results.push(['SQLite', sqliteMedians, reportExport('SQLite', await exportMemory(dir))]);

    if (pgAdmin) {
      heading('PostgreSQL (a database of its own, the app schema and indexes)');
      const name = `pipsense_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: pgAdmin });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      pgDrop = async () => {
        const c = new pg.Client({ connectionString: pgAdmin });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      };
      const url = new URL(pgAdmin);
      url.pathname = `/${name}`;
      start = performance.now();
      await fillPostgres(url.toString(), data);
      console.log(`filled in ${ms(performance.now() - start, 0)}`);
      const pgDb = createDb({ dataDir: '', databaseUrl: url.toString() });
      const pgMedians = await measurePages(pgDb, trades);
      await pgDb.close();
      results.push(['PostgreSQL', pgMedians, reportExport('PostgreSQL', await exportMemory(url.toString()))]);
    } else {
      heading('PostgreSQL: skipped (set PIPSENSE_BENCH_PG_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres)');
    }

    heading('goals');
    for (const [engine, medians] of results)
      for (const [label, value] of medians)
        goal(`${engine}: ${label}, page of 10 (median)`, ms(value), value < GOAL_MS, `< ${GOAL_MS} ms`);
  } finally {
    await pgDrop?.();
    rmSync(dir, { recursive: true, force: true });
  }
});
