// The balance's narrow read (closed-amounts.ts): one account's closed trades as close times and exact minor units,
// oldest close first, against the same trades read row by row, on the suite's database (SQLite, or PostgreSQL).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { migrateToLatest } from '../../db/migrate';
import { instantOf } from '../../domain/calendar';
import { minorUnitsOf } from '../../domain/money';
import { createTestDb } from '../../test/harness';
import { insertUser } from '../../test/rows';
import { seedAccount } from '../../test/seed-trades';
import { closedAmounts, firstOpenTime } from './closed-amounts';

const USER = 'user-closed';
const OTHER = 'user-closed-other';
const AT = '2025-01-01T00:00:00.000Z';
const BASE = Date.parse('2025-03-01T00:00:00.000Z');
const LOGINS = ['C1', 'C2'] as const;
const KEYS = LOGINS.map((login) => `oanda:fxpractice:${login}`);

interface GeneratedTrade {
  user: 0 | 1;
  key: 0 | 1;
  state: 'OPEN' | 'CLOSED' | 'CLOSE_WHEN_TRADEABLE';
  openSecond: number;
  closeAfter: number;
  /** How the close time is written: a broker's nanoseconds, whole milliseconds, or an import's whole seconds. */
  closeForm: 'nanos' | 'millis' | 'seconds';
  closeMs: number;
  realized: string;
  financing: string;
}

const amount = fc.oneof(
  fc
    .tuple(fc.integer({ min: -2_000_000, max: 2_000_000 }), fc.integer({ min: 0, max: 5 }))
    .map(([n, places]) => (n / 10 ** places).toFixed(places)),
  fc.constantFrom('0', '-0.0000', '12.5', '-0.00005', '0.00005', '123456789.1234'),
);
const generated: fc.Arbitrary<GeneratedTrade> = fc.record({
  user: fc.constantFrom(0 as const, 0 as const, 1 as const),
  key: fc.constantFrom(0 as const, 1 as const),
  state: fc.constantFrom('OPEN' as const, 'CLOSED' as const, 'CLOSED' as const, 'CLOSE_WHEN_TRADEABLE' as const),
  openSecond: fc.integer({ min: 0, max: 40 }),
  closeAfter: fc.integer({ min: 0, max: 20 }),
  closeForm: fc.constantFrom('nanos' as const, 'millis' as const, 'seconds' as const),
  closeMs: fc.constantFrom(0, 0, 1, 500, 999),
  realized: amount,
  financing: amount,
});

function closeTime(t: GeneratedTrade): string {
  const ms = BASE + (t.openSecond + t.closeAfter) * 1000 + (t.closeForm === 'seconds' ? 0 : t.closeMs);
  const iso = new Date(ms).toISOString();
  if (t.closeForm === 'seconds') return `${iso.slice(0, 19)}Z`;
  return t.closeForm === 'millis' ? iso : `${iso.slice(0, 23)}123456Z`;
}

let testDb: Awaited<ReturnType<typeof createTestDb>>;
let db: Kysely<Database>;

beforeAll(async () => {
  testDb = await createTestDb();
  await migrateToLatest(testDb.db);
  db = testDb.db.kysely;
  for (const user of [USER, OTHER]) {
    await insertUser(db, user, AT);
    for (const login of LOGINS) await seedAccount(db, user, login);
  }
});
afterAll(async () => {
  await testDb.close();
});

async function store(trades: readonly GeneratedTrade[]): Promise<void> {
  await db.deleteFrom('trades').execute();
  for (const [i, t] of trades.entries())
    await db
      .insertInto('trades')
      .values({
        user_id: [USER, OTHER][t.user]!,
        account_key: KEYS[t.key]!,
        trade_id: String(100 + i),
        trade_num: 100 + i,
        mode: 'demo',
        instrument: 'EUR_USD',
        price: '1.10000',
        initial_units: '1000',
        current_units: t.state === 'CLOSED' ? '0' : '1000',
        realized_pl: t.realized,
        unrealized_pl: null,
        financing: t.financing,
        state: t.state,
        open_time: `${new Date(BASE + t.openSecond * 1000).toISOString().slice(0, 19)}.000000000Z`,
        close_time: t.state === 'CLOSED' ? closeTime(t) : null,
        average_close_price: null,
        stop_loss_price: null,
        take_profit_price: null,
        trailing_stop_distance: null,
        initial_stop_loss_price: null,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
}

describe("an account's closed trades as a balance books them", () => {
  it('are every closed trade of the account, by close time, its amounts exact', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(generated, { maxLength: 30 }), async (trades) => {
        await store(trades);
        for (const key of [0, 1] as const) {
          const mine = trades.filter((t) => t.user === 0 && t.key === key);
          // Sorted by instant: stored texts of different forms do not sort as their times do.
          const closed = mine
            .filter((t) => t.state === 'CLOSED')
            .map((t) => ({ at: instantOf(closeTime(t)), pl: minorUnitsOf(t.realized), fin: minorUnitsOf(t.financing) }))
            .sort((a, b) => a.at - b.at);
          const read = await closedAmounts(db, USER, KEYS[key]!);
          expect([...read.closeAt]).toEqual(closed.map((c) => c.at));
          // Trades closed at the same instant may come in either order; their amounts are the same multiset per time.
          const byTime = (at: Float64Array, values: Float64Array) => [...at].map((t, i) => `${t}:${values[i]}`).sort();
          expect(byTime(read.closeAt, read.realizedPL)).toEqual(closed.map((c) => `${c.at}:${c.pl}`).sort());
          expect(byTime(read.closeAt, read.financing)).toEqual(closed.map((c) => `${c.at}:${c.fin}`).sort());
          const opens = mine.map((t) => BASE + t.openSecond * 1000).sort((a, b) => a - b);
          const first = await firstOpenTime(db, USER, KEYS[key]!);
          expect(first === null ? null : instantOf(first)).toEqual(opens[0] ?? null);
        }
      }),
      { numRuns: 25 },
    );
  });
});
