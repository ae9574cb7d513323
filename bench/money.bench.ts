/*
 * Balance and equity over time (apps/server modules/money, docs/money.md):
 * - balance history: GET /api/v1/money/get_balance_history/:accountId?resolution=trade through the real app
 *   (app.inject, SQLite) for one account of 100,000 synthetic trades seeded straight into the app's tables, beside
 *   the read of the same trades alone through the read side (the floor the route cannot go under). Goal ≤ 100 ms.
 * - equity rebuild: one trading day (M5) of 10 open positions, quoted in USD, JPY, GBP, CHF and CAD on a USD account,
 *   from candles stored in memory (the candle store's answer): the reads, the price series and E at every candle.
 *   Goal ≤ 50 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { createDb } from '../apps/server/src/db/client';
import { bumpDataVersion } from '../apps/server/src/db/data-versions';
import { slice } from '../apps/server/src/db/slice';
import {
  generateSyntheticTrades,
  SYNTHETIC_ACCOUNT_IDS,
  SYNTHETIC_NOW,
} from '../apps/server/src/test/synthetic-trades';
import { oandaAccount } from '../apps/server/src/modules/trading/account-key';
import { createBookRows, type TradeViewsTables } from '../apps/server/src/modules/trade-views';
import { bookTrades, createMoneyService, noCandles, noEquitySamples } from '../apps/server/src/modules/money';
import { equityAt, instrumentsNeeded, priceSeries } from '../apps/server/src/modules/money/equity';
import type { CandleSource, MoneyCandle, MoneyTrade } from '../apps/server/src/modules/money/ports';
import { createBenchApp } from './support/bench-app';
import { goal, heading, median, ms, runBench, spread } from './support/stats';
import { TRADE_COLUMNS, tradeRow } from './support/trade-rows';

const N = 100_000;
const RUNS = 7;
const HISTORY_GOAL_MS = 100;
const REBUILD_GOAL_MS = 50;
const ACCOUNT_ID = SYNTHETIC_ACCOUNT_IDS[0];

function userIdOf(dbFile: string, username: string): string {
  const sqlite = new SQLite(dbFile, { readonly: true });
  try {
    return (sqlite.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: string }).id;
  } finally {
    sqlite.close();
  }
}

/** 100,000 synthetic trades, all on one USD account, straight into the app's tables. */
function seed(dbFile: string, userId: string): void {
  const trades = generateSyntheticTrades(N, 7).map((t) => ({ ...t, accountId: ACCOUNT_ID }));
  const sqlite = new SQLite(dbFile);
  sqlite.pragma('journal_mode = WAL');
  const insert = sqlite.prepare(
    `INSERT INTO trades (${TRADE_COLUMNS}) VALUES (${TRADE_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`,
  );
  const stamp = SYNTHETIC_NOW.toISOString();
  const identity = oandaAccount('demo', ACCOUNT_ID);
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `INSERT INTO broker_accounts (id, user_id, account_key, platform, server, login, mode, currency, balance, nav,
          hedging_enabled, synced_at, version, created_at, updated_at)
         VALUES (?, ?, ?, 'oanda', ?, ?, 'demo', 'USD', '10000.0000', '10000.0000', 0, ?, 1, ?, ?)`,
      )
      .run(randomUUID(), userId, identity.account_key, identity.server, ACCOUNT_ID, stamp, stamp, stamp);
    for (const t of trades) insert.run(...tradeRow(t, userId, stamp));
  })();
  sqlite.exec('ANALYZE');
  sqlite.close();
}

async function balanceHistory(): Promise<number> {
  heading(`balance history of ${N.toLocaleString('en-US')} trades (SQLite, resolution=trade)`);
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-bench-money-'));
  const db = createDb({ dataDir: dir });
  const t = await createBenchApp({}, { db, now: () => SYNTHETIC_NOW });
  try {
    const user = await t.user('money');
    const userId = userIdOf(join(dir, 'pipsense.db'), user.username);
    seed(join(dir, 'pipsense.db'), userId);
    const url = `/api/v1/money/get_balance_history/${ACCOUNT_ID}?resolution=trade`;
    const route: number[] = [];
    const repeat: number[] = [];
    const reads: number[] = [];
    const bookRows = createBookRows(slice<TradeViewsTables>(db.kysely));
    let points = 0;
    for (let i = 0; i <= RUNS; i++) {
      let start = performance.now();
      let rows = 0;
      await bookRows.read(userId, { account: ACCOUNT_ID }, () => void rows++);
      const read = performance.now() - start;
      // The first history after the data version moved: the trades read and booked again.
      await bumpDataVersion(db.kysely, userId, new Date().toISOString());
      start = performance.now();
      const res = await t.call(user.token, { method: 'GET', url });
      const elapsed = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`history answered ${res.statusCode}: ${res.body}`);
      start = performance.now();
      const again = await t.call(user.token, { method: 'GET', url });
      if (again.statusCode !== 200) throw new Error(`history answered ${again.statusCode}: ${again.body}`);
      if (i > 0) repeat.push(performance.now() - start);
      points = res.json<{ data: { points: unknown[] } }>().data.points.length;
      if (rows !== N) throw new Error(`read ${rows} trades, expected ${N}`);
      if (i === 0) continue; // warm-up
      route.push(elapsed);
      reads.push(read);
    }
    // The service alone, in this process (no HTTP, no JSON): what the route adds is the 8 MB answer.
    let version = 0;
    const money = createMoneyService({
      accounts: {
        named: () => Promise.resolve([{ accountKey: oandaAccount('demo', ACCOUNT_ID).account_key, currency: 'USD' }]),
      },
      trades: bookTrades(bookRows),
      cashFlows: { cashFlows: () => Promise.resolve([]) },
      samples: noEquitySamples,
      candles: noCandles,
      versionOf: () => Promise.resolve(String(version)),
      now: () => SYNTHETIC_NOW,
    });
    const serviceKept: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      version += 1;
      await money.balanceHistory(userId, ACCOUNT_ID, { resolution: 'trade' });
      const start = performance.now();
      await money.balanceHistory(userId, ACCOUNT_ID, { resolution: 'trade' });
      if (i > 0) serviceKept.push(performance.now() - start);
    }
    console.log(`${points.toLocaleString('en-US')} points`);
    console.log(`service alone, same data version, ${RUNS} runs: ${spread(serviceKept)}`);
    console.log(`route, first after a change, ${RUNS} runs: ${spread(route)}`);
    console.log(`route, same data version (bookings kept), ${RUNS} runs: ${spread(repeat)}`);
    console.log(`the same trades read alone (read side), ${RUNS} runs: ${spread(reads)}`);
    console.log(`first after a change / read: ${(median(route) / median(reads)).toFixed(2)}`);
    goal(
      'balance history of 100,000 trades, same data version',
      ms(median(repeat)),
      median(repeat) <= HISTORY_GOAL_MS,
      `≤ ${HISTORY_GOAL_MS} ms`,
    );
    goal(
      'balance history of 100,000 trades, first after a change',
      ms(median(route)),
      median(route) <= HISTORY_GOAL_MS,
      `≤ ${HISTORY_GOAL_MS} ms`,
    );
    return median(route);
  } finally {
    await t.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Ten positions open across the day, on a USD account, with their instruments' and conversions' M5 candles. */
function rebuildBook() {
  const day = Date.UTC(2026, 2, 2);
  const positions: Array<[string, string, string]> = [
    ['EUR_USD', '1.08000', '10000'],
    ['GBP_USD', '1.27000', '-8000'],
    ['USD_JPY', '150.000', '20000'],
    ['AUD_USD', '0.66000', '15000'],
    ['USD_CHF', '0.88000', '-12000'],
    ['USD_CAD', '1.35000', '9000'],
    ['EUR_GBP', '0.85000', '11000'],
    ['EUR_JPY', '162.000', '-7000'],
    ['GBP_JPY', '190.500', '5000'],
    ['NZD_USD', '0.61000', '13000'],
  ];
  const trades: MoneyTrade[] = positions.map(([instrument, price, units], i) => ({
    tradeId: String(i + 1),
    instrument,
    price,
    units,
    state: 'OPEN',
    openTime: new Date(day - 3_600_000).toISOString(),
    closeTime: null,
    realizedPL: '0',
    financing: '0',
  }));
  const base = Object.fromEntries(positions.map(([i, p]) => [i, Number(p)]));
  const stored = new Map<string, MoneyCandle[]>();
  for (const instrument of instrumentsNeeded(trades, 'USD')) {
    const level = base[instrument] ?? 1;
    const digits = level > 50 ? 3 : 5;
    stored.set(
      instrument,
      Array.from({ length: 24 * 12 + 1 }, (_, k) => ({
        time: new Date(day - 300_000 + k * 300_000).toISOString(),
        c: (level * (1 + 0.002 * Math.sin(k / 10))).toFixed(digits),
      })),
    );
  }
  const candles: CandleSource = {
    canRead: () => Promise.resolve(true),
    read: (r) => Promise.resolve(stored.get(r.instrument) ?? []),
  };
  const times = Array.from({ length: 24 * 12 }, (_, k) => day + (k + 1) * 300_000);
  return { trades, candles, times, day, instruments: [...stored.keys()] };
}

async function equityRebuild(): Promise<number> {
  const { trades, candles, times, day, instruments } = rebuildBook();
  heading(
    `equity rebuild: one day (M5, ${times.length} candles), ${trades.length} open positions, ${instruments.length} instruments`,
  );
  const rebuild = async () => {
    const series = new Map<string, ReturnType<typeof priceSeries>>();
    for (const instrument of instruments) {
      const read = await candles.read({
        userId: 'bench',
        instrument,
        granularity: 'M5',
        from: new Date(day - 300_000).toISOString(),
        to: new Date(day + 86_400_000).toISOString(),
        priority: 'rebuild',
      });
      series.set(instrument, priceSeries(read, 'M5'));
    }
    return equityAt(times, trades, 'USD', series, 'M5', () => 100_000_000);
  };
  const first = await rebuild();
  if (first.some((e) => e === null)) throw new Error('the rebuild left equity unknown');
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await rebuild();
    runs.push(performance.now() - start);
  }
  console.log(
    `rebuild, ${RUNS} runs: ${spread(runs)}; ${((median(runs) / times.length) * 1000).toFixed(1)} µs a candle`,
  );
  goal(
    'equity rebuild of one day, 10 positions',
    ms(median(runs)),
    median(runs) <= REBUILD_GOAL_MS,
    `≤ ${REBUILD_GOAL_MS} ms`,
  );
  return median(runs);
}

/** A fixed piece of CPU work, timed: how loaded the shared machine is during this run (as bench/overview.bench.ts). */
function yardstick(): number {
  const start = performance.now();
  let x = 0;
  for (let i = 0; i < 50_000_000; i++) x += i % 7;
  if (x < 0) console.log(x);
  return performance.now() - start;
}

runBench(async () => {
  console.log(`machine yardstick (5e7-step loop): ${ms(yardstick(), 0)}`);
  await balanceHistory();
  await equityRebuild();
  console.log(`machine yardstick after: ${ms(yardstick(), 0)}`);
});
