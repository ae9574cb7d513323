/*
 * The coach's weekly review (docs/coach.md, Weekly review): `GET /api/v1/coach/get_weekly_review/:week` of an ended
 * week none has stored, composed on the request through the real app (app.inject, SQLite), without a provider: a
 * week of 500 closed trades (one in three with an initial stop, moods on its days) and 1,200 trades over the 12 weeks
 * before. Each run deletes the stored review first (outside the timing), so every read composes. Goal: ≤ 300 ms.
 */
import { createTestDb } from '../apps/server/src/test/harness';
import { seedAccount, seedTrades, userIdOf, type SeedTrade } from '../apps/server/src/test/seed-trades';
import type { WeeklyReview } from '@pipsense/contract';
import { createBenchApp } from './support/bench-app';
import { goal, heading, median, ms, runBench, spread } from './support/stats';

const WEEK_START = Date.UTC(2026, 10, 16);
const RUNS = 15;

function trades(from: number, count: number, spanMs: number, firstId: number): SeedTrade[] {
  return Array.from({ length: count }, (_, i) => {
    const open = from + Math.floor((i * spanMs) / count);
    const win = i % 5 < 3;
    const pl = win ? `${(10 + (i % 17)).toFixed(2)}` : `-${(8 + (i % 13)).toFixed(2)}`;
    return {
      id: String(firstId + i),
      instrument: ['EUR_USD', 'GBP_USD', 'USD_JPY'][i % 3],
      open: new Date(open).toISOString(),
      close: new Date(open + 20 * 60_000).toISOString(),
      pl,
      ...(i % 3 === 0 ? { price: '1.10000', closePrice: win ? '1.10150' : '1.09900', initialStop: '1.09900' } : {}),
    };
  });
}

runBench(async () => {
  const database = await createTestDb();
  const clock = new Date(WEEK_START + 9 * 86_400_000);
  const app = await createBenchApp({}, { db: database.db, now: () => clock });
  try {
    const db = database.db.kysely;
    const u = await app.user('bench');
    const id = await userIdOf(db, u.username);
    const key = await seedAccount(db, id, '101-004-9000001-001');
    await db.updateTable('broker_accounts').set({ currency: 'USD' }).where('account_key', '=', key).execute();
    const week = 7 * 86_400_000;
    await seedTrades(db, id, key, [
      ...trades(WEEK_START - 12 * week, 1200, 12 * week - 3_600_000, 1),
      ...trades(WEEK_START, 500, 5 * 86_400_000, 10_001),
    ]);
    const at = clock.toISOString();
    await db
      .insertInto('journal_days')
      .values(
        [16, 17, 18, 19, 20].map((d, i) => ({
          user_id: id,
          day: `2026-11-${d}`,
          note: '',
          mood: (i % 5) + 1,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();

    const compose = async () => {
      await db.deleteFrom('coach_weekly_reviews').where('user_id', '=', id).execute();
      const start = performance.now();
      const res = await app.call(u.token, { method: 'GET', url: '/api/v1/coach/get_weekly_review/2026-W47' });
      const took = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`answered ${res.statusCode}: ${res.body}`);
      return { took, data: res.json<{ data: WeeklyReview }>().data };
    };
    heading('weekly review of a 500-trade week (1,200 trades in the 12 weeks before), no provider');
    const first = await compose();
    console.log(
      `first: ${ms(first.took)}; ${first.data.figures.trades} trades, baseline over ${first.data.baseline?.weeks} weeks`,
    );
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await compose()).took);
    console.log(`composed and stored: ${spread(times)}`);
    goal(
      'weekly review of a 500-trade week',
      ms(median(times)),
      median(times) <= 300 && first.data.figures.trades === 500,
      '≤ 300 ms',
    );
  } finally {
    await app.close();
    await database.close();
  }
});
