/*
 * The coach's behaviour patterns over 100,000 trades (docs/coach.md, Patterns). Goal: ≤ 500 ms for a request whose
 * analysis is not kept yet: reading the whole book through the read side (SQLite file, the app's schema and
 * indexes), the seven detectors and the cost of every pattern. Printed beside the detectors alone and a request whose
 * analysis is kept (the trade list's pattern filter asks once per page).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { DEFAULT_COACH_THRESHOLDS } from '@pipsense/contract';
import { createDb } from '../apps/server/src/db/client';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { detectPatternColumns, detectPatterns, type PatternTrade } from '../apps/server/src/modules/analytics';
import { createBookBuilder } from '../apps/server/src/modules/coach/pattern-book';
import type { PatternRow } from '../apps/server/src/modules/trade-views';
import { createCoachPatterns, createPatternBookThreads } from '../apps/server/src/modules/coach';
import { createBookRows } from '../apps/server/src/modules/trade-views';
import { generateSyntheticTrades, SYNTHETIC_NOW } from '../apps/server/src/test/synthetic-trades';
import { bareReadThreads } from './support/bare-read-threads';
import { goal, heading, median, ms, runBench, spread } from './support/stats';
import { TRADE_COLUMNS, tradeRow } from './support/trade-rows';

const N = 100_000;
const RUNS = Number(process.env.PATTERNS_RUNS ?? 7);
const GOAL_MS = 500;
const USER = 'bench-user';
const TIME_ZONE = 'America/New_York';

runBench(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-bench-patterns-'));
  try {
    heading(`${N.toLocaleString('en-US')} synthetic trades`);
    const trades = generateSyntheticTrades(N, 42);
    const db = createDb({ dataDir: dir });
    await migrateToLatest(db);
    // A plain connection without foreign keys: the trades need no user or account rows.
    const sqlite = new SQLite(join(dir, 'pipsense.db'));
    sqlite.pragma('foreign_keys = OFF');
    const insert = sqlite.prepare(
      `INSERT INTO trades (${TRADE_COLUMNS}) VALUES (${TRADE_COLUMNS.split(',')
        .map(() => '?')
        .join(', ')})`,
    );
    const stamp = SYNTHETIC_NOW.toISOString();
    sqlite.transaction(() => {
      for (const t of trades) insert.run(...tradeRow(t, USER, stamp));
    })();
    sqlite.exec('ANALYZE');
    sqlite.close();

    const rows = createBookRows(db.kysely);
    let version = 0;
    const threads = createPatternBookThreads();
    const deps = {
      rows: (userId: string, add: (row: PatternRow) => void) => rows.patternRows(userId, {}, add),
      accountKeysNamed: (userId: string, accountId: string) => rows.accountKeysNamed(userId, accountId),
      accountCurrencies: () => Promise.resolve(new Map<string, string>()),
      stopLevels: () => Promise.resolve(new Map<string, string[]>()),
      thresholds: () => Promise.resolve(DEFAULT_COACH_THRESHOLDS),
      timeZoneOf: () => Promise.resolve(TIME_ZONE),
      homeCurrencyOf: () => Promise.resolve('USD'),
      // A new version on each call: every request below reads and detects again, unless said otherwise.
      dataVersionOf: () => Promise.resolve(String(version)),
    };
    // As the app wires it: a book this large is built in parts, one on each thread (a thread a core, two to four).
    const patterns = createCoachPatterns({
      ...deps,
      rowParts: (userId, parts, from) => rows.patternRowParts(userId, {}, parts, from),
      threads,
    });
    // The same book read and built on the request's thread alone, for comparison.
    const oneThread = createCoachPatterns(deps);
    const request = { platform: 'oanda' as const };
    const first = await patterns.patterns(USER, request);
    const same = await oneThread.patterns(USER, request);
    if (JSON.stringify(first) !== JSON.stringify(same)) throw new Error('the threads and one thread disagree');
    console.log(`check: ${first.map((p) => `${p.pattern} ${p.count}`).join(', ')}; the same on one thread`);

    heading(`a request, analysis not kept: read, detect, cost (${RUNS} runs each after a warm-up, taking turns)`);
    // The floor: the same statements read on as many plain threads, nothing built from the rows, then the detectors
    // over the book's columns already built.
    const bare = bareReadThreads(threads.count);
    const statements = (await rows.patternRowParts(USER, {}, threads.count, 1))!;
    const built = createBookBuilder(new Map(), new Map());
    await rows.patternRows(USER, {}, built.add);
    const columns = built.finish().columns;
    const floor = async () => {
      if ((await bare.read(statements)) !== N) throw new Error('the bare read missed rows');
      detectPatternColumns(columns, DEFAULT_COACH_THRESHOLDS, TIME_ZONE);
    };
    await floor();
    const cold: number[] = [];
    const coldOne: number[] = [];
    const floorTimes: number[] = [];
    // CPU time of the whole process (every thread) a request: steadier than wall time on a busy machine.
    const cpu: number[] = [];
    const cpuOne: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const [service, times, cpuTimes] of [
        [patterns, cold, cpu],
        [oneThread, coldOne, cpuOne],
      ] as const) {
        version++;
        const startCpu = process.cpuUsage();
        const start = performance.now();
        await service.patterns(USER, request);
        times.push(performance.now() - start);
        const used = process.cpuUsage(startCpu);
        cpuTimes.push((used.user + used.system) / 1000);
      }
      const start = performance.now();
      await floor();
      floorTimes.push(performance.now() - start);
    }
    console.log(`${threads.count} threads (the app): ${spread(cold)}; CPU ${spread(cpu)}`);
    console.log(`one thread: ${spread(coldOne)}; CPU ${spread(cpuOne)}`);
    console.log(`floor (the bare read on ${threads.count} threads, then the detectors): ${spread(floorTimes)}`);
    console.log(`${threads.count} threads / one thread (medians): ${(median(cold) / median(coldOne)).toFixed(2)}`);
    console.log(`the app / its floor (medians): ${(median(cold) / median(floorTimes)).toFixed(2)}`);

    heading('a request, analysis kept (the same data version)');
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await patterns.patterns(USER, { ...request, from: '2024-01-01T00:00:00Z' });
      warm.push(performance.now() - start);
    }
    console.log(`request: ${spread(warm)}`);

    heading('the read side alone: every row of the book, nothing done with it');
    const readOnly: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      let n = 0;
      await rows.patternRows(USER, {}, () => n++);
      readOnly.push(performance.now() - start);
    }
    console.log(`read: ${spread(readOnly)}`);

    heading('the detectors alone');
    const input: PatternTrade[] = trades.map((t) => ({
      instrument: t.instrument,
      currency: 'USD',
      units: Math.abs(t.units),
      risk: null,
      openTime: t.openTime,
      closeTime: t.closeTime,
      closed: t.state === 'CLOSED',
      plMinor: Math.round(t.realizedPL * 10_000),
      capturePct: null,
      stopWidened: false,
    }));
    const detect: number[] = [];
    detectPatterns(input, DEFAULT_COACH_THRESHOLDS, TIME_ZONE);
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      detectPatterns(input, DEFAULT_COACH_THRESHOLDS, TIME_ZONE);
      detect.push(performance.now() - start);
    }
    console.log(`detectors: ${spread(detect)}`);
    await threads.close();
    await bare.close();
    await db.close();

    heading('goals');
    const coldMedian = median(cold);
    goal(
      'patterns of 100k trades, analysis not kept (median)',
      ms(coldMedian),
      coldMedian <= GOAL_MS,
      `≤ ${GOAL_MS} ms`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
