import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { createTestApp, createTestDb, TEST_SECRETS, testDialect, type TestApp } from '../../test/harness';
import { userIdOf } from '../../test/session-subject';
import { until } from '../../test/until';
import { createSyncRunner } from './sync-runner';
import { createSyncScheduleRepository } from './sync-schedule.repository';
import type { SyncJobs } from './sync-jobs.service';

/*
 * The user's sync lease (sync_schedules, shared by every instance) on a clock the test moves, with heartbeats the
 * test beats by hand: a lease whose holder died (no heartbeat) runs out within the short lease and no longer blocks
 * the Sync button; a live sync, however long, keeps it; on SQLite a restarted server releases at once the lease its
 * crashed predecessor left. On SQLite and PostgreSQL.
 */
const START = Date.UTC(2026, 0, 5, 12, 0);
const SEC = 1000;
const MIN = 60 * SEC;

let testDb: { db: Db; close(): Promise<void> };
const open: TestApp[] = [];
beforeEach(async () => {
  testDb = await createTestDb();
  await migrateToLatest(testDb.db);
});
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
  await testDb.close();
});

/** An instance's runner on the shared database, its clock the test's, its heartbeats beaten only by `beat()`. */
function instance(owner: string, clock: { at: number }) {
  const schedules = createSyncScheduleRepository(testDb.db.kysely, {
    connectedUsers: async () => [],
    connectedSince: async () => new Date(START).toISOString(),
  });
  const beats = new Set<() => void>();
  const logged: Array<Record<string, unknown>> = [];
  const runner = createSyncRunner({
    schedules,
    owner,
    work: async () => {},
    token: async () => 'token',
    now: () => new Date(clock.at),
    tokenGapMs: 0,
    log: (_err, context) => logged.push(context),
    every: (_ms, beat) => {
      beats.add(beat);
      return () => beats.delete(beat);
    },
  });
  return {
    runner,
    schedules,
    logged,
    /** One heartbeat of every sync this instance runs, and its write. */
    async beat() {
      for (const b of beats) b();
      await new Promise((r) => setTimeout(r, 20));
    },
    heartbeats: () => beats.size,
  };
}

/** A manual sync of `userId` on `on`: 'ran', or the code it was refused with. */
async function manualSync(on: ReturnType<typeof instance>, userId: string): Promise<string> {
  try {
    return await on.runner.runManual(userId, async () => 'ran');
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

/** A sync that runs until `finish` is called. */
function hangingSync() {
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => gate, finish };
}

describe('the sync lease', () => {
  it("of an instance that died (no heartbeat) stops blocking the user's Sync within the short lease", async () => {
    const clock = { at: START };
    const dead = instance('dead-instance', clock);
    const alive = instance('live-instance', clock);
    // The dead instance took the lease for a Sync and never came back: its heartbeat never beats again.
    const lost = hangingSync();
    const running = dead.runner.runManual('u1', lost.work);
    await until(() => dead.heartbeats() === 1, 'the sync to take the lease and start beating');

    clock.at = START + 30 * SEC;
    expect(await manualSync(alive, 'u1')).toBe('SYNC_IN_PROGRESS');
    clock.at = START + 46 * SEC;
    expect(await manualSync(alive, 'u1')).toBe('ran');
    // Had it only stalled, its next heartbeat finds the lease in other hands and says so (the sync itself goes on).
    expect(dead.logged).toEqual([]);
    await dead.beat();
    expect(dead.logged).toEqual([{ userId: 'u1', step: 'sync heartbeat' }]);
    lost.finish();
    await running;
  });

  it('held by a live sync is kept across the old 15-minute mark, then released when it ends', async () => {
    const clock = { at: START };
    const a = instance('instance-a', clock);
    const b = instance('instance-b', clock);
    const long = hangingSync();
    const running = a.runner.runManual('u1', long.work);
    await until(() => a.heartbeats() === 1, 'the sync to take the lease and start beating');
    // Twenty minutes of a sync that writes no page (one slow step), beating every 15 s.
    for (let at = START; at <= START + 20 * MIN; at += 15 * SEC) {
      clock.at = at;
      await a.beat();
      if ((at - START) % (4 * MIN) === 0) expect(await manualSync(b, 'u1')).toBe('SYNC_IN_PROGRESS');
    }
    expect(await manualSync(b, 'u1')).toBe('SYNC_IN_PROGRESS');
    expect(a.logged).toEqual([]);
    long.finish();
    await running;
    expect(a.heartbeats()).toBe(0);
    expect(await manualSync(b, 'u1')).toBe('ran');
  });

  it('held by a live background sync is kept too', async () => {
    const clock = { at: START };
    const a = instance('instance-a', clock);
    const b = instance('instance-b', clock);
    const long = hangingSync();
    const scheduled = createSyncRunner({
      schedules: a.schedules,
      owner: 'instance-a',
      work: long.work,
      token: async () => 'token',
      now: () => new Date(clock.at),
      tokenGapMs: 0,
      log: (_err, context) => a.logged.push(context),
      every: (_ms, beat) => {
        const stop = setInterval(beat, 5);
        return () => clearInterval(stop);
      },
    });
    const outcome = scheduled.runScheduled('u2');
    // The real timer beats every 5 ms: after 16 minutes on the clock the lease is still the running sync's.
    await new Promise((r) => setTimeout(r, 50));
    clock.at = START + 16 * MIN;
    await new Promise((r) => setTimeout(r, 50));
    expect(await manualSync(b, 'u2')).toBe('SYNC_IN_PROGRESS');
    long.finish();
    expect(await outcome).toBe('synced');
    expect(a.logged).toEqual([]);
  });
});

describe.skipIf(testDialect !== 'sqlite')('a restart on SQLite', () => {
  it('releases at once the lease a crashed process left, so the first Sync is not refused', async () => {
    const clock = { at: START };
    const build = async (onlyInstance: boolean) => {
      let jobs: SyncJobs | undefined;
      const t = await createTestApp(TEST_SECRETS, {
        db: testDb.db,
        now: () => new Date(clock.at),
        syncJobs: { onlyInstance, expose: (j) => (jobs = j) },
      });
      open.push(t);
      return { t, jobs: jobs! };
    };
    const before = await build(true);
    const user = await before.t.user();
    const id = userIdOf(user.token);
    // The process crashed mid-sync: its lease is in the table, its heartbeat gone with it.
    const crashed = instance('crashed-process', clock);
    const left = hangingSync();
    void crashed.runner.runManual(id, left.work);
    await until(() => crashed.heartbeats() === 1, 'the sync to take the lease and start beating');
    expect(await manualSync(instance('other', clock), id)).toBe('SYNC_IN_PROGRESS');

    // The server starts again a second later, the only process on its data directory.
    clock.at = START + SEC;
    const after = await build(true);
    expect(await after.jobs.runner.runManual(id, async () => 'ran')).toBe('ran');
    const status = await after.t.call(user.token, { method: 'GET', url: '/api/v1/sync/status' });
    expect(status.json<{ data: { running: unknown } }>().data.running).toBeNull();
    left.finish();
  });
});
