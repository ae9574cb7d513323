import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COACH_THRESHOLDS } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { seedAccount, seedTrades, userIdOf, type SeedTrade } from '../../test/seed-trades';
import { createBookRows } from '../trade-views';
import { createBookBuilder, joinBooks } from './pattern-book';
import { createPatternBookThreads, type PartStatement, type PatternBookThreads } from './pattern-book-threads';
import { createCoachPatterns, type CoachPatternsDeps } from './patterns';

/*
 * A book built in parts on threads (docs/decisions/026-pattern-book-on-threads.md) is the book built on one thread:
 * the same patterns, trades and costs, on SQLite; PostgreSQL is never cut. The book: two accounts in two currencies,
 * losses followed within minutes by larger trades, trades opened at the same second across a cut, an open trade and
 * a P/L of more decimals than minor units hold.
 */

const NOW = '2026-11-20T12:00:00.000Z';

function book(prefix: number): SeedTrade[] {
  const trades: SeedTrade[] = [];
  for (let i = 0; i < 60; i++) {
    const day = String(2 + Math.floor(i / 6)).padStart(2, '0');
    const minute = String((i % 6) * 9).padStart(2, '0');
    const open = `2026-03-${day}T${i % 5 === 0 ? '08:00' : `09:${minute}`}:00Z`;
    trades.push({
      id: String(prefix + i),
      instrument: i % 3 === 0 ? 'USD_JPY' : 'EUR_USD',
      units: String((i % 4 === 1 ? -1 : 1) * (i % 7 === 3 ? 5000 : 1000)),
      open,
      close: i === 59 ? null : `2026-03-${day}T10:${minute}:00Z`,
      pl: i === 17 ? '1.23456' : `${i % 3 === 0 ? '-' : ''}${i}.${String(i % 100).padStart(2, '0')}`,
      closePrice: i === 59 ? null : '1.10100',
      initialStop: i % 2 === 0 ? '1.09500' : null,
      mfe: i % 4 === 0 ? '1.11000' : null,
    });
  }
  return trades;
}

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let userId: string;
const keys: string[] = [];

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db, now: () => new Date(NOW) });
  const alice = await t.user('alice');
  userId = await userIdOf(testDb.db.kysely, alice.username);
  keys.push(await seedAccount(testDb.db.kysely, userId, '101-001'));
  keys.push(await seedAccount(testDb.db.kysely, userId, '101-002'));
  await seedTrades(testDb.db.kysely, userId, keys[0]!, book(1000));
  await seedTrades(testDb.db.kysely, userId, keys[1]!, book(2000));
});

afterAll(async () => {
  await t.close();
  await testDb.close();
});

function deps(): CoachPatternsDeps {
  const rows = createBookRows(testDb.db.kysely);
  return {
    rows: (user, add) => rows.patternRows(user, {}, add),
    accountKeysNamed: (user, accountId) => rows.accountKeysNamed(user, accountId),
    accountCurrencies: () =>
      Promise.resolve(
        new Map([
          [keys[0]!, 'USD'],
          [keys[1]!, 'EUR'],
        ]),
      ),
    stopLevels: () => Promise.resolve(new Map([[`${keys[0]!} 1004`, ['1.09500', '1.09000']]])),
    thresholds: () => Promise.resolve(DEFAULT_COACH_THRESHOLDS),
    timeZoneOf: () => Promise.resolve('Europe/London'),
    homeCurrencyOf: () => Promise.resolve('USD'),
    dataVersionOf: () => Promise.resolve('1'),
  };
}

describe('the pattern book in parts', () => {
  it('cuts the read into consecutive parts on SQLite only, and only from the size asked', async () => {
    const rows = createBookRows(testDb.db.kysely);
    const parts = await rows.patternRowParts(userId, {}, 3, 1);
    if (testDb.db.dialect === 'postgres') {
      expect(parts).toBeNull();
      return;
    }
    expect(parts).toHaveLength(3);
    expect(await rows.patternRowParts(userId, {}, 3, 121)).toBeNull();
  });

  it('gives the same book joined from parts as read whole', async () => {
    const all: Parameters<ReturnType<typeof createBookBuilder>['add']>[0][] = [];
    await createBookRows(testDb.db.kysely).patternRows(userId, {}, (row) => all.push(row));
    const currencies = new Map([[keys[1]!, 'EUR']]);
    const whole = createBookBuilder(currencies, new Map());
    all.forEach((row) => whole.add(row));
    for (const cuts of [[1], [7, 61], [0, 60, 119]]) {
      const parts = [0, ...cuts, all.length].slice(1).map((end, k, ends) => {
        const builder = createBookBuilder(currencies, new Map());
        all.slice(k === 0 ? 0 : ends[k - 1], end).forEach((row) => builder.add(row));
        return builder.finish();
      });
      expect(joinBooks(parts)).toEqual(whole.finish());
    }
  });

  it('finds the same patterns, trades and costs on two threads as on one', async () => {
    const threads = createPatternBookThreads(2);
    try {
      const rows = createBookRows(testDb.db.kysely);
      let cut = 0;
      const threaded = createCoachPatterns({
        ...deps(),
        rowParts: async (user, parts, from) => {
          const statements = await rows.patternRowParts(user, {}, parts, from);
          if (statements) cut += 1;
          return statements;
        },
        threads,
        threadedFrom: 1,
      });
      const one = createCoachPatterns(deps());
      for (const request of [{}, { from: '2026-03-04T00:00:00Z' }, { accountId: '101-002' }]) {
        const expected = await one.patterns(userId, request);
        expect(expected.some((p) => p.count > 0)).toBe(true);
        expect(await threaded.patterns(userId, request)).toEqual(expected);
      }
      expect(cut).toBe(testDb.db.dialect === 'postgres' ? 0 : 1);
    } finally {
      await threads.close();
    }
  });

  it('reads the book on the request’s thread when a thread fails, and says so', async () => {
    const threads = createPatternBookThreads(2);
    try {
      const rows = createBookRows(testDb.db.kysely);
      // A statement that fails in its thread: the read side's last part broken on SQLite; on PostgreSQL (never cut)
      // parts on a file that is not there.
      const failingParts = async (user: string, parts: number, from: number): Promise<PartStatement[]> => {
        const statements = await rows.patternRowParts(user, {}, parts, from);
        if (!statements) {
          const missing = { filename: '/nonexistent/pipsense.db', busyTimeoutMs: 0, sql: 'select 1', parameters: [] };
          return [missing, missing];
        }
        return statements.map((part, k) =>
          k === statements.length - 1 ? { ...part, sql: 'select * from no_such_table' } : part,
        );
      };
      // A thread that stopped while building.
      const stopped: PatternBookThreads = {
        ...threads,
        build: () => Promise.reject(new Error('a pattern book thread stopped (exit code 1)')),
      };
      const one = createCoachPatterns(deps());
      for (const failing of [threads, stopped]) {
        const failures: unknown[] = [];
        const threaded = createCoachPatterns({
          ...deps(),
          rowParts: failingParts,
          threads: failing,
          threadedFrom: 1,
          threadFailed: (error) => failures.push(error),
        });
        for (const request of [{}, { from: '2026-03-04T00:00:00Z' }, { accountId: '101-002' }])
          expect(await threaded.patterns(userId, request)).toEqual(await one.patterns(userId, request));
        // The book is read once per version: one failure, reported.
        expect(failures).toHaveLength(1);
        failures.forEach((error) => expect(error).toBeInstanceOf(Error));
      }
    } finally {
      await threads.close();
    }
  });
});

describe('the pattern book in parts, written meanwhile', () => {
  it('reads the book again in one statement when a write lands between the parts', async () => {
    if (testDb.db.dialect === 'postgres') return; // never cut
    const threads = createPatternBookThreads(2);
    try {
      const rows = createBookRows(testDb.db.kysely);
      const before = await createCoachPatterns(deps()).patterns(userId, {});
      let version = 1;
      let wholeReads = 0;
      // The first part is read, then a loss in the first part's days is written (moving the version), then the rest.
      let first: PartStatement | undefined;
      let written!: () => void;
      const afterWrite = new Promise<void>((resolve) => (written = resolve));
      const racing: PatternBookThreads = {
        ...threads,
        build: async (part, currencies, stops) => {
          if (part !== first) await afterWrite;
          const built = await threads.build(part, currencies, stops);
          if (part === first) {
            const loss = { id: '1999', open: '2026-03-01T09:00:00Z', close: '2026-03-01T09:30:00Z', pl: '-77.00' };
            await seedTrades(testDb.db.kysely, userId, keys[0]!, [loss]);
            version += 1;
            written();
          }
          return built;
        },
      };
      const threaded = createCoachPatterns({
        ...deps(),
        rows: (user, add) => ((wholeReads += 1), rows.patternRows(user, {}, add)),
        dataVersionOf: () => Promise.resolve(String(version)),
        rowParts: async (user, parts, from) => {
          const statements = await rows.patternRowParts(user, {}, parts, from);
          first = statements?.[0];
          return statements;
        },
        threads: racing,
        threadedFrom: 1,
      });
      const seen = await threaded.patterns(userId, {});
      expect(first).toBeDefined();
      expect(wholeReads).toBe(1);
      expect(seen).not.toEqual(before);
      expect(seen).toEqual(await createCoachPatterns(deps()).patterns(userId, {}));
    } finally {
      await threads.close();
    }
  });
});
