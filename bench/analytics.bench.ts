/*
 * The overview metrics of 100,000 trades. Goals: ≤ 250 ms and ≤ 150 MB resident memory, printed beside
 * one plain aggregate SQL query over the same rows in SQLite (the app's own `trades` table, built by its
 * migrations), measured in the same run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { build } from 'esbuild';
import { createDb } from '../apps/server/src/db/client';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { computeMetrics, type EngineTrade } from '../apps/server/src/modules/analytics/engine';
import { generateSyntheticTrades, syntheticAccounts, SYNTHETIC_NOW } from '../apps/server/src/test/synthetic-trades';
import { goal, heading, mb, median, ms, runBench, spread } from './support/stats';
import { repoRoot } from './support/sim-process';
import { TRADE_COLUMNS, tradeRow } from './support/trade-rows';

const N = 100_000;
const RUNS = 7;
const MEMORY_RUNS = 3;
const GOAL_MS = 250;
const GOAL_BYTES = 150 * 1024 * 1024;
const OPTIONS = { now: SYNTHETIC_NOW, timeZone: 'America/New_York' };
const USER = 'bench-user';

function timeSync(runs: number, work: () => unknown): number[] {
  work(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    out.push(performance.now() - start);
  }
  return out;
}

interface ChildMemory {
  trades: number;
  rssStart: number;
  peakGenerating: number;
  rssData: number;
  heapData: number;
  rssAfter: number;
  peakComputing: number;
  peakIsComputeOnly: boolean;
  computeMs: number;
}

/** The engine alone in fresh processes, without any TypeScript loader: what the built server would hold. */
async function memoryInFreshProcesses(dir: string, runs: number) {
  const outfile = join(dir, 'analytics-memory-child.mjs');
  await build({
    entryPoints: [join(repoRoot, 'bench/support/analytics-memory-child.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  const empty = JSON.parse(
    execFileSync(process.execPath, ['-e', 'console.log(JSON.stringify(process.memoryUsage()))'], { encoding: 'utf8' }),
  ) as { rss: number };
  const run = (...flags: string[]) => {
    const out = execFileSync(process.execPath, ['--expose-gc', ...flags, outfile, String(N)], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').at(-1)!) as ChildMemory;
  };
  const children = Array.from({ length: runs }, () => run());
  // For comparison only: V8's young generation (semi-spaces, 16 MB each by default) is a large part of the total.
  const smallYoung = run('--max-semi-space-size=4');
  return { emptyRss: empty.rss, children, smallYoung };
}

/** The app's trades table (real migrations), filled with the same trades as OANDA's decimal strings. */
async function sqliteWithTrades(dir: string, trades: readonly EngineTrade[]) {
  const db = createDb({ dataDir: dir });
  await migrateToLatest(db);
  await db.close();
  // A plain connection without foreign keys (better-sqlite3 turns them on): the trades need no user or account rows.
  const sqlite = new SQLite(join(dir, 'pipsense.db'));
  sqlite.pragma('foreign_keys = OFF');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const insert = sqlite.prepare(
    `INSERT INTO trades (${TRADE_COLUMNS}) VALUES (${TRADE_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`,
  );
  const stamp = SYNTHETIC_NOW.toISOString();
  sqlite.transaction(() => {
    for (const t of trades) insert.run(...tradeRow(t, USER, stamp));
  })();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.exec('ANALYZE');
  return sqlite;
}

runBench(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-bench-analytics-'));
  try {
    heading(`${N.toLocaleString('en-US')} synthetic trades`);
    let start = performance.now();
    const trades = generateSyntheticTrades(N, 42);
    const accounts = syntheticAccounts(trades);
    console.log(`generated in ${ms(performance.now() - start, 0)}`);

    const metrics = computeMetrics(trades, accounts, OPTIONS);
    console.log(`check: tradeCount ${metrics.tradeCount}, winRate ${metrics.winRate}, summary "${metrics.summary}"`);

    heading(`computeMetrics, ${RUNS} runs after a warm-up (time zone ${OPTIONS.timeZone})`);
    const engineMs = timeSync(RUNS, () => computeMetrics(trades, accounts, OPTIONS));
    console.log(`engine: ${spread(engineMs)}`);

    heading('one aggregate SQL query over the same rows (SQLite file, the app schema and indexes)');
    start = performance.now();
    const db = await sqliteWithTrades(dir, trades);
    console.log(`inserted ${N.toLocaleString('en-US')} rows in ${ms(performance.now() - start, 0)}`);
    const aggregate = db.prepare(`SELECT instrument, COUNT(*) AS trades, SUM(CAST(realized_pl AS REAL)) AS pl
      FROM trades WHERE user_id = ? AND mode = 'demo' GROUP BY instrument`);
    const groups = aggregate.all(USER) as Array<{ instrument: string; trades: number; pl: number }>;
    console.log(
      `result: ${groups.map((g) => `${g.instrument} ${g.trades}`).join(', ')} (Σ ${groups.reduce((s, g) => s + g.trades, 0)})`,
    );
    const sqlMs = timeSync(RUNS, () => aggregate.all(USER));
    console.log(`aggregate query: ${spread(sqlMs)}`);
    // Context, not a goal: what the route pays to read the rows the engine needs.
    const readAll = db.prepare(`SELECT * FROM trades WHERE user_id = ? AND mode = 'demo' ORDER BY open_time`);
    const readMs = timeSync(3, () => readAll.all(USER));
    console.log(`reading every row (SELECT * … ORDER BY open_time): ${spread(readMs)}`);
    db.close();

    heading(`resident memory: ${MEMORY_RUNS} fresh processes that load the engine, generate the trades and compute`);
    const mem = await memoryInFreshProcesses(dir, MEMORY_RUNS);
    const pick = (f: (c: ChildMemory) => number) => median(mem.children.map(f));
    const peak = pick((c) => c.peakComputing);
    const computeOnly = mem.children.every((c) => c.peakIsComputeOnly);
    console.log(`empty node process:               rss ${mb(mem.emptyRss)}`);
    console.log(`after loading the engine:         rss ${mb(pick((c) => c.rssStart))}`);
    console.log(
      `peak while generating the trades: ${mb(pick((c) => c.peakGenerating))} (the generator's garbage, not the engine's)`,
    );
    console.log(
      `100k trades held, after a GC:     rss ${mb(pick((c) => c.rssData))} (heap used ${mb(pick((c) => c.heapData))})`,
    );
    console.log(
      `after computeMetrics:             rss ${mb(pick((c) => c.rssAfter))} (cold compute ${ms(
        pick((c) => c.computeMs),
        0,
      )})`,
    );
    console.log(
      `peak while computing:             ${mb(peak)} ${computeOnly ? '(peak reset before computing)' : '(peak since start: this kernel cannot reset it)'}`,
    );
    console.log(`  per run: ${mem.children.map((c) => mb(c.peakComputing)).join(', ')}`);
    console.log(
      `  for comparison, node --max-semi-space-size=4: peak while computing ${mb(mem.smallYoung.peakComputing)}, ` +
        `trades held ${mb(mem.smallYoung.rssData)}, cold compute ${ms(mem.smallYoung.computeMs, 0)}`,
    );

    heading('goals');
    const engineMedian = median(engineMs);
    const sqlMedian = median(sqlMs);
    console.log(
      `engine / SQL aggregate: ${(engineMedian / sqlMedian).toFixed(2)}× (${ms(engineMedian)} vs ${ms(sqlMedian)})`,
    );
    goal('computeMetrics, 100k trades (median)', ms(engineMedian), engineMedian <= GOAL_MS, `≤ ${GOAL_MS} ms`);
    goal('peak resident memory while computing, trades held (median)', mb(peak), peak <= GOAL_BYTES, '≤ 150 MB');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
