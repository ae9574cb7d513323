import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { AnalyticsTables } from '../modules/analytics';
import type { TradingTables } from '../modules/trading';
import { createTestDb } from '../test/harness';
import { migrateToLatest } from './migrate';
import { slice } from './slice';

/*
 * One owner per table, enforced by the compiler: a module's Kysely names only the tables it owns, so reading another
 * module's table fails `npm run typecheck` (this file is type-checked with the rest). The `@ts-expect-error` lines
 * are the proof: were the query allowed, the directive itself would be the error.
 */
describe('a module slice of the database', () => {
  it("does not let analytics select from trading's trades", () => {
    const readTrades = (db: Kysely<AnalyticsTables>) => {
      // @ts-expect-error: `trades` is trading's table, not in analytics' slice.
      void db.selectFrom('trades');
    };
    const readOwn = (db: Kysely<AnalyticsTables>) => db.selectFrom('analytics_insights').select('user_id');
    expectTypeOf(readOwn).returns.not.toBeAny();
    expectTypeOf<keyof AnalyticsTables>().toEqualTypeOf<'analytics_insights' | 'overview_snapshots'>();
    expectTypeOf<'trades'>().not.toExtend<keyof AnalyticsTables>();
    expect(readTrades).toBeTypeOf('function');
  });

  it('is the same client at run time: a slice reads the tables it names', async () => {
    const store = await createTestDb();
    try {
      await migrateToLatest(store.db);
      const trading = slice<TradingTables>(store.db.kysely);
      expect(trading).toBe(store.db.kysely);
      expect(await trading.selectFrom('trades').select('trade_id').execute()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
