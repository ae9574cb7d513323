import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestApp, testDialect } from '../../test/harness';
import { saveOanda } from '../../test/oanda-user';
import { SYNC_QUEUE } from './pg-boss-queue';
import type { SyncJobs } from './sync-jobs.service';
import { userIdOf } from '../../test/session-subject';

/*
 * SECURITY.md, Data left behind after deletion: deleting an account removes its background-sync jobs from pg-boss's own
 * schema (PostgreSQL), whatever their state — waiting, running, or finished and archived — and leaves every other
 * user's jobs as they were.
 */
const SCHEMA = 'pgboss_pipsense';

describe.skipIf(testDialect !== 'postgres')('account deletion and the pg-boss queue', () => {
  it("removes the deleted user's sync jobs (waiting, running, archived) and keeps another user's", async () => {
    const clock = { at: Date.UTC(2026, 0, 5, 12, 0) };
    let jobs: SyncJobs | undefined;
    let gate: Promise<void> = Promise.resolve();
    let open = () => {};
    const calls: string[] = [];
    const t = await createTestApp(
      {},
      {
        now: () => new Date(clock.at),
        syncJobs: {
          enabled: true,
          // One worker: of two jobs at once, one runs and the other waits.
          maxConcurrent: 1,
          tokenGapMs: 0,
          pgBoss: {
            cron: false,
            pollingIntervalSeconds: 0.5,
            maintenanceIntervalSeconds: 1,
            archiveCompletedAfterSeconds: 1,
          },
          work: async (userId) => {
            calls.push(userId);
            await gate;
          },
          expose: (j) => (jobs = j),
        },
      },
    );
    const client = new pg.Client({ connectionString: t.env.DATABASE_URL });
    await client.connect();
    /** The user's sync jobs in pg-boss's two tables. */
    const kept = async (userId: string) => {
      const count = async (table: string) => {
        const { rows } = await client.query<{ n: number }>(
          `select count(*)::int as n from ${SCHEMA}.${table} where name = $1 and (singleton_key = $2 or data->>'userId' = $2)`,
          [SYNC_QUEUE, userId],
        );
        return rows[0]!.n;
      };
      return { job: await count('job'), archive: await count('archive') };
    };
    try {
      const gone = await t.user('gone');
      const stays = await t.user('stays');
      for (const u of [gone, stays]) await saveOanda(t.api(u.token), { oanda: { accessToken: `token-${u.username}` } });
      const ids = { gone: userIdOf(gone.token), stays: userIdOf(stays.token) };

      // First round: both synced; pg-boss moves the finished jobs to its archive (after 1 s here).
      expect(await jobs!.queue.tick()).toBe(2);
      for (const id of Object.values(ids))
        await expect
          .poll(() => kept(id), { timeout: 20_000, message: 'the first round archived' })
          .toEqual({ job: 0, archive: 1 });

      // A schedule later: both due again; one job runs (held here), the other waits for the one worker.
      clock.at += 60 * 60_000;
      gate = new Promise<void>((resolve) => (open = resolve));
      expect(await jobs!.queue.tick()).toBe(2);
      await expect.poll(() => calls.length, { timeout: 20_000, message: 'one job of the second round runs' }).toBe(3);
      expect(await kept(ids.gone)).toEqual({ job: 1, archive: 1 });
      expect(await kept(ids.stays)).toEqual({ job: 1, archive: 1 });

      const res = await t.call(gone.token, {
        method: 'POST',
        url: '/api/v1/account/delete_account',
        payload: { password: gone.password },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await kept(ids.gone), "the deleted user's jobs are gone from pg-boss").toEqual({ job: 0, archive: 0 });
      expect(await kept(ids.stays), "the other user's jobs stay").toEqual({ job: 1, archive: 1 });

      // The other user's job still runs to its end; the deleted user's never runs again.
      const before = calls.length;
      open();
      await expect
        .poll(() => kept(ids.stays), { timeout: 20_000, message: "the other user's second job ran and was archived" })
        .toEqual({ job: 0, archive: 2 });
      expect(calls.slice(before)).not.toContain(ids.gone);
      expect(await kept(ids.gone)).toEqual({ job: 0, archive: 0 });
    } finally {
      open();
      await client.end();
      await t.close();
    }
  }, 90_000);
});
