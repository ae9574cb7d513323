import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate';
import { createTestDb } from '../../test/harness';
import { createSyncJobs } from './sync-jobs.service';
import { createSyncScheduleRepository } from './sync-schedule.repository';
import { createSettingsRepository } from '../settings';

/*
 * A tick finds every due user, however many: the due users are read a page (1,000) at a time. On SQLite and
 * PostgreSQL, with the in-process queue (the page walk is the same for pg-boss).
 */
const NOW = new Date(Date.UTC(2026, 0, 5, 12, 0));
const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function seeded(users: number) {
  const database = await createTestDb();
  open.push(() => database.close());
  await migrateToLatest(database.db);
  const stamp = NOW.toISOString();
  const ids = Array.from({ length: users }, () => randomUUID());
  for (let from = 0; from < ids.length; from += 500) {
    const batch = ids.slice(from, from + 500);
    await database.db.kysely
      .insertInto('users')
      .values(
        batch.map((id) => ({
          id,
          username: id,
          username_key: id,
          email: `${id}@example.com`,
          password_hash: 'unused',
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute();
    await database.db.kysely
      .insertInto('user_info')
      .values(
        batch.map((id) => ({
          user_id: id,
          default_ai_platform: 'openai',
          default_trading_platform: 'OANDA',
          oanda_access_token: 'sealed',
          oanda_account_id: '',
          oanda_mode: 'demo',
          updated_at: stamp,
        })),
      )
      .execute();
  }
  return { db: database.db, ids: ids.sort() };
}

describe('due users read a page at a time', () => {
  it('pages in user id order after the last id of the page before, and answers for one user', async () => {
    const { db, ids } = await seeded(5);
    const schedules = createSyncScheduleRepository(db.kysely, createSettingsRepository(db.kysely));
    const first = await schedules.due(NOW, 2);
    const second = await schedules.due(NOW, 2, first.at(-1));
    const third = await schedules.due(NOW, 2, second.at(-1));
    expect([...first, ...second, ...third]).toEqual(ids);
    expect(third).toHaveLength(1);
    expect(await schedules.isDue(ids[0]!, NOW)).toBe(true);
    await schedules.setInterval(ids[0]!, 0, NOW);
    expect(await schedules.isDue(ids[0]!, NOW)).toBe(false);
  });

  it('enqueues every due user on one tick, beyond the first page', async () => {
    const { db, ids } = await seeded(1001);
    const synced = new Set<string>();
    const jobs = createSyncJobs({
      db: db.kysely,
      trading: {
        syncAccounts: () => Promise.reject(new Error('not used')),
        syncTrades: () => Promise.reject(new Error('not used')),
      },
      settings: {
        ...createSettingsRepository(db.kysely),
        oandaCredentials: async (userId) => ({ accessToken: `token-${userId}`, accountId: '', mode: 'demo' }),
      },
      now: () => NOW,
      log: (err) => {
        throw err;
      },
      tickMs: 0,
      tokenGapMs: 0,
      maxConcurrent: 16,
      work: async (userId) => void synced.add(userId),
    });
    await jobs.start();
    open.push(() => jobs.stop());
    expect(await jobs.queue.tick()).toBe(1001);
    await jobs.queue.idle();
    expect([...synced].sort()).toEqual(ids);
  });
});
