/*
 * The rule engine's answers from stored day records (apps/server modules/rules, docs/rules.md, Status): one account of
 * 100,000 synthetic trades seeded straight into the app's tables (SQLite), its equity rebuilt from H1 candles held
 * in memory (the candle store's answer, every request counted), two rule sets covering the ten rule kinds, through
 * the rules service as app.ts wires it (read side, trading, money module, the day store):
 * - the equity rebuild, measured apart: the money module's first history (background candle reads) until complete;
 * - a full recompute: the stored rows dropped, then the status (inputs read, the whole pass, the rows written);
 *   beside it, the inputs' read alone and the engine's pass alone. Goal ≤ 2 s;
 * - the status after a change of one day: a trade closed today stored (the data version moves), then the status:
 *   the inputs read again, the completed days' digests compared, the pass resumed from today. Goal ≤ 50 ms;
 * - the status and the days while nothing changed: from the stored rows, no input read;
 * - candle requests: those the rule answers make once the rebuild is done (goal 0; budget 300 a minute a token).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { createDb } from '../apps/server/src/db/client';
import { bumpDataVersion, listVersionReader, type DataVersionsTables } from '../apps/server/src/db/data-versions';
import { slice } from '../apps/server/src/db/slice';
import { HOUR_MS } from '../apps/server/src/domain/calendar';
import {
  generateSyntheticTrades,
  SYNTHETIC_ACCOUNT_IDS,
  SYNTHETIC_NOW,
} from '../apps/server/src/test/synthetic-trades';
import { oandaAccount } from '../apps/server/src/modules/trading/account-key';
import { createTradingService, type TradingDb } from '../apps/server/src/modules/trading';
import { createTradeViews, type TradeViewsTables } from '../apps/server/src/modules/trade-views';
import { bookTrades, createMoneyService, namedAccounts, noEquitySamples } from '../apps/server/src/modules/money';
import type { CandleSource, MoneyCandle } from '../apps/server/src/modules/money/ports';
import {
  createRuleDayStore,
  createRulesRepository,
  createRulesService,
  type RulesTables,
} from '../apps/server/src/modules/rules';
import type { RuleSources } from '../apps/server/src/modules/rules/ports';
import { evaluateRules, type RuleInput, type RuleInputs } from '../apps/server/src/modules/rules/engine';
import { createBenchApp } from './support/bench-app';
import { goal, heading, median, ms, runBench, spread } from './support/stats';
import { TRADE_COLUMNS, tradeRow } from './support/trade-rows';

const N = 100_000;
const RUNS = 9;
const FULL_GOAL_MS = 2000;
const CHANGE_GOAL_MS = 50;
const CANDLES_PER_MINUTE = 300;
const ACCOUNT_ID = SYNTHETIC_ACCOUNT_IDS[0];
const NOW = SYNTHETIC_NOW;

/** The two sets: a challenge (five kinds) and personal rules (the other five). */
const SETS: Array<{ name: string; rules: RuleInput[] }> = [
  {
    name: 'challenge',
    rules: [
      { kind: 'profit_target', effect: 'fail', params: { pct: 10 } },
      {
        kind: 'daily_loss',
        effect: 'pause_until_reset',
        params: { pct: 5, anchor: 'max_start_balance_equity', zone: 'Europe/Prague' },
      },
      { kind: 'max_loss', effect: 'pause_until_reset', params: { pct: 10, mode: 'trail_intraday_equity' } },
      { kind: 'min_trading_days', effect: 'fail', params: { min: 4 } },
      { kind: 'consistency', effect: 'fail', params: { maxPct: 50 } },
    ],
  },
  {
    name: 'personal',
    rules: [
      { kind: 'profitable_days', effect: 'fail', params: { min: 3, threshold: 0.5, pnlBasis: 'closed_by_open_day' } },
      { kind: 'max_risk_per_trade', effect: 'pause_until_reset', params: { pct: 1 } },
      { kind: 'max_trades_per_day', effect: 'pause_until_reset', params: { max: 20 } },
      { kind: 'max_consecutive_losses', effect: 'pause_until_reset', params: { max: 5 } },
      { kind: 'no_weekend_holding', effect: 'pause_until_reset', params: {} },
    ],
  },
];

const trades = generateSyntheticTrades(N, 7).map((t) => ({ ...t, accountId: ACCOUNT_ID }));

function userIdOf(dbFile: string, username: string): string {
  const sqlite = new SQLite(dbFile, { readonly: true });
  try {
    return (sqlite.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: string }).id;
  } finally {
    sqlite.close();
  }
}

/** The 100,000 trades, all on one USD account, straight into the app's tables (as bench/money.bench.ts). */
function seed(dbFile: string, userId: string): void {
  const sqlite = new SQLite(dbFile);
  sqlite.pragma('journal_mode = WAL');
  const insert = sqlite.prepare(
    `INSERT INTO trades (${TRADE_COLUMNS}) VALUES (${TRADE_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`,
  );
  const stamp = NOW.toISOString();
  const identity = oandaAccount('demo', ACCOUNT_ID);
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `INSERT INTO broker_accounts (id, user_id, account_key, platform, server, login, mode, currency, balance, nav,
          hedging_enabled, synced_at, version, created_at, updated_at)
         VALUES (?, ?, ?, 'oanda', ?, ?, 'demo', 'USD', '100000.0000', '100000.0000', 0, ?, 1, ?, ?)`,
      )
      .run(randomUUID(), userId, identity.account_key, identity.server, ACCOUNT_ID, stamp, stamp, stamp);
    for (const t of trades) insert.run(...tradeRow(t, userId, stamp));
  })();
  sqlite.exec('ANALYZE');
  sqlite.close();
}

/** H1 mid candles of any instrument over any range, made on request (the store's answer), every request counted. */
function candleStore() {
  const counted = { reads: 0, candles: 0 };
  const level: Record<string, number> = { EUR_USD: 1.1, GBP_USD: 1.3, USD_JPY: 148, AUD_USD: 0.66, EUR_JPY: 162 };
  const source: CandleSource = {
    canRead: () => Promise.resolve(true),
    read(request) {
      counted.reads++;
      const base = level[request.instrument] ?? 2400;
      const digits = base > 50 ? 3 : 5;
      const out: MoneyCandle[] = [];
      const step = HOUR_MS;
      for (let at = Math.ceil(Date.parse(request.from) / step) * step; at <= Date.parse(request.to); at += step) {
        const k = at / step;
        out.push({ time: new Date(at).toISOString(), c: (base * (1 + 0.02 * Math.sin(k / 500))).toFixed(digits) });
      }
      counted.candles += out.length;
      return Promise.resolve(out);
    },
  };
  return { source, counted };
}

/** A fixed piece of CPU work, timed: how loaded the shared machine is during this run (as bench/money.bench.ts). */
function yardstick(): number {
  const start = performance.now();
  let x = 0;
  for (let i = 0; i < 50_000_000; i++) x += i % 7;
  if (x < 0) console.log(x);
  return performance.now() - start;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-bench-rules-'));
  const db = createDb({ dataDir: dir });
  const t = await createBenchApp({}, { db, now: () => NOW });
  try {
    const user = await t.user('rules');
    const dbFile = join(dir, 'pipsense.db');
    const userId = userIdOf(dbFile, user.username);
    seed(dbFile, userId);
    const key = oandaAccount('demo', ACCOUNT_ID).account_key;
    const first = Math.min(...trades.map((x) => x.openTime));
    const years = (NOW.getTime() - first) / (365.25 * 24 * HOUR_MS);
    console.log(`${N.toLocaleString('en-US')} trades on one USD account over ${years.toFixed(1)} years`);

    // The services as app.ts wires them, the sources timed.
    const now = () => NOW;
    const versionOf = listVersionReader(slice<DataVersionsTables>(db.kysely));
    const trading = createTradingService({
      db: slice<TradingDb>(db.kysely),
      oanda: {} as never,
      settings: { oandaCredentials: () => Promise.resolve(undefined) },
      now,
    });
    const views = createTradeViews({ db: slice<TradeViewsTables>(db.kysely), listVersionOf: versionOf, now });
    const candles = candleStore();
    const money = createMoneyService({
      accounts: namedAccounts(views.bookRows, trading),
      trades: bookTrades(views.bookRows),
      cashFlows: { cashFlows: (id, filter) => trading.cashFlows(id, filter) },
      samples: noEquitySamples,
      candles: candles.source,
      versionOf,
      now,
    });
    // The wall time of the inputs' reads of one answer (they run at once): from the first start to the last end.
    const reading = {
      from: Infinity,
      to: 0,
      get ms() {
        return Math.max(0, this.to - this.from);
      },
    };
    const resetReading = () => {
      reading.from = Infinity;
      reading.to = 0;
    };
    const timedRead =
      <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        reading.from = Math.min(reading.from, performance.now());
        try {
          return await read(...args);
        } finally {
          reading.to = Math.max(reading.to, performance.now());
        }
      };
    const ruleAccounts = namedAccounts(views.bookRows, trading);
    const sources: RuleSources = {
      dataVersion: versionOf,
      named: timedRead((id: string, accountId: string) => ruleAccounts.named(id, accountId)),
      trades: timedRead((id: string, accountKey: string) => views.bookRows.tradeFacts(id, accountKey)),
      cashFlows: timedRead((id: string, accountKey: string) => trading.cashFlows(id, { accountKey })),
      balanceHistory: timedRead((id: string, accountKey: string, to: string) =>
        money.balanceHistory(id, accountKey, { to, resolution: 'trade' }),
      ),
    };
    const dayStore = createRuleDayStore(slice<RulesTables>(db.kysely));
    const rules = createRulesService({
      repository: createRulesRepository(slice<RulesTables>(db.kysely)),
      days: dayStore,
      sources,
      now,
    });

    console.log(`machine yardstick (5e7-step loop): ${ms(yardstick(), 0)}`);

    heading('equity rebuild (the money module, apart from the rules)');
    let start = performance.now();
    await money.balanceHistory(userId, key, { to: NOW.toISOString(), resolution: 'trade' });
    await money.idle();
    const history = await money.balanceHistory(userId, key, { to: NOW.toISOString(), resolution: 'trade' });
    const rebuildMs = performance.now() - start;
    if (!history.equityComplete) throw new Error('the equity rebuild left equity unknown');
    console.log(
      `rebuild of ${history.points.length.toLocaleString('en-US')} points: ${ms(rebuildMs, 0)}, ` +
        `${candles.counted.reads} candle requests (${candles.counted.candles.toLocaleString('en-US')} H1 candles)`,
    );
    const rebuildReads = candles.counted.reads;

    heading(`the inputs' reads alone, same data version, ${RUNS} runs`);
    const parts: Record<string, number[]> = {};
    for (let run = 0; run <= RUNS; run++) {
      const time = async (name: string, read: () => Promise<unknown>) => {
        const began = performance.now();
        await read();
        if (run > 0) (parts[name] ??= []).push(performance.now() - began);
      };
      await time('trades (read side, tradeFacts)', () => views.bookRows.tradeFacts(userId, key));
      await time('cash flows (trading)', () => trading.cashFlows(userId, { accountKey: key }));
      await time('balance history by trade (money)', () =>
        money.balanceHistory(userId, key, { to: NOW.toISOString(), resolution: 'trade' }),
      );
    }
    for (const [name, values] of Object.entries(parts)) console.log(`${name}: ${spread(values)}`);

    const startTime = new Date(first).toISOString();
    const sets = [];
    for (const s of SETS)
      sets.push(
        await rules.create(userId, {
          accountId: key,
          name: s.name,
          startTime,
          initialBalance: '100000',
          rules: s.rules as never,
        }),
      );

    heading(`full recompute (stored rows dropped), ${RUNS} runs per set`);
    const full: Record<string, number[]> = {};
    const fullReads: Record<string, number[]> = {};
    const passes: Record<string, number[]> = {};
    let stored = { days: 0, breaks: 0 };
    for (let run = 0; run <= RUNS; run++)
      for (const set of sets) {
        await dayStore.forget(set.id);
        resetReading();
        start = performance.now();
        const status = await rules.status(userId, set.id);
        const elapsed = performance.now() - start;
        if (run === 0) {
          console.log(`${set.name}: ${status.state}`);
          continue;
        }
        (full[set.name] ??= []).push(elapsed);
        (fullReads[set.name] ??= []).push(reading.ms);
      }
    // The engine's pass alone, on inputs read once.
    const inputs = await (async (): Promise<RuleInputs> => {
      const [facts, history2] = await Promise.all([
        views.bookRows.tradeFacts(userId, key),
        money.balanceHistory(userId, key, { to: NOW.toISOString(), resolution: 'trade' }),
      ]);
      return {
        currency: 'USD',
        trades: facts.map((f) => ({
          key: f.tradeId,
          instrument: f.instrument,
          openTime: f.openTime,
          closeTime: f.closeTime,
          realizedPL: f.realizedPL,
          riskAtOpen: null,
        })),
        cashFlows: [],
        equity: {
          points: history2.points.map((p) => ({ time: p.time, equity: p.equity })),
          equityComplete: history2.equityComplete,
          equityUnknown: false,
        },
      };
    })();
    for (const set of sets) {
      for (let run = 0; run <= RUNS; run++) {
        start = performance.now();
        const { accountId, name, startTime: from, initialBalance, rules: list } = set;
        const ruleSet = { accountId, name, startTime: from, initialBalance, rules: list };
        const result = evaluateRules(ruleSet, inputs, NOW.toISOString(), { carry: true });
        if (run > 0) (passes[set.name] ??= []).push(performance.now() - start);
        else stored = { days: result.days.length, breaks: result.breaks.length };
      }
      console.log(
        `${set.name}: whole ${spread(full[set.name]!)}; of which inputs read ${spread(fullReads[set.name]!)}; ` +
          `the engine's pass alone ${spread(passes[set.name]!)} (${stored.days} days, ${stored.breaks} trade breaks)`,
      );
    }

    heading(`status after a change of one day (a trade closed today), ${RUNS} runs per set`);
    const change: Record<string, number[]> = {};
    const changeReads: Record<string, number[]> = {};
    const base = trades.find((x) => x.state === 'CLOSED')!;
    for (let run = 0; run <= RUNS; run++) {
      const opened = NOW.getTime() - 3 * HOUR_MS + run * 60_000;
      const row = tradeRow(
        { ...base, tradeId: `99${String(run).padStart(9, '0')}`, openTime: opened, closeTime: opened + 30 * 60_000 },
        userId,
        NOW.toISOString(),
      );
      await sql`INSERT INTO trades (${sql.raw(TRADE_COLUMNS)}) VALUES (${sql.join(row)})`.execute(db.kysely);
      await bumpDataVersion(db.kysely, userId, NOW.toISOString());
      for (const set of sets) {
        resetReading();
        start = performance.now();
        await rules.status(userId, set.id);
        const elapsed = performance.now() - start;
        if (run === 0) continue;
        (change[set.name] ??= []).push(elapsed);
        (changeReads[set.name] ??= []).push(reading.ms);
      }
    }
    for (const set of sets)
      console.log(
        `${set.name}: ${spread(change[set.name]!)}; of which inputs read ${spread(changeReads[set.name]!)} ` +
          `(the rest: digests, resume from today, rows written ${ms(median(change[set.name]!) - median(changeReads[set.name]!))})`,
      );

    heading(`nothing changed: from the stored rows, ${RUNS} runs per set`);
    const quiet: Record<string, number[]> = {};
    const quietDays: Record<string, number[]> = {};
    for (let run = 0; run <= RUNS; run++)
      for (const set of sets) {
        start = performance.now();
        await rules.status(userId, set.id);
        const statusMs = performance.now() - start;
        start = performance.now();
        const days = await rules.days(userId, set.id, {});
        const daysMs = performance.now() - start;
        if (run === 0) continue;
        if (days.length < 365) throw new Error(`${days.length} days`);
        (quiet[set.name] ??= []).push(statusMs);
        (quietDays[set.name] ??= []).push(daysMs);
      }
    for (const set of sets)
      console.log(`${set.name}: status ${spread(quiet[set.name]!)}; days ${spread(quietDays[set.name]!)}`);

    const ruleReads = candles.counted.reads - rebuildReads;
    const worst = (by: Record<string, number[]>) => Math.max(...Object.values(by).map((v) => median(v)));
    console.log('');
    goal(
      'full recompute of a set, 100,000 trades',
      ms(worst(full), 0),
      worst(full) <= FULL_GOAL_MS,
      `≤ ${FULL_GOAL_MS} ms`,
    );
    goal(
      'status after a change of one day',
      ms(worst(change)),
      worst(change) <= CHANGE_GOAL_MS,
      `≤ ${CHANGE_GOAL_MS} ms`,
    );
    if (worst(changeReads) > CHANGE_GOAL_MS)
      console.log(
        `info  the inputs' read alone (${ms(worst(changeReads))}: the trades, cash flows and balance history read ` +
          `again after the data version moved) is above ${CHANGE_GOAL_MS} ms: the floor of an answer after a change here`,
      );
    goal(
      'status while nothing changed (stored)',
      ms(worst(quiet)),
      worst(quiet) <= CHANGE_GOAL_MS,
      `≤ ${CHANGE_GOAL_MS} ms`,
    );
    goal(
      'candle requests of the rule answers after the rebuild',
      `${ruleReads} (rebuild: ${rebuildReads})`,
      ruleReads === 0 && rebuildReads <= CANDLES_PER_MINUTE,
      `0, the rebuild within ${CANDLES_PER_MINUTE} a minute a token`,
    );
    console.log(`machine yardstick after: ${ms(yardstick(), 0)}`);
  } finally {
    await t.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
