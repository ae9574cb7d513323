import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, createTestDb, testDialect, type TestApp } from '../test/harness';
import type { SyncJobs } from '../modules/sync-jobs/sync-jobs.service';
import type { ReadinessBody } from './health';

/*
 * Liveness and readiness, on SQLite and PostgreSQL: `/healthz` answers while the process runs; `/readyz` answers 200
 * only while the database answers and the job queue runs (pg-boss on PostgreSQL, the in-process queue on SQLite),
 * else 503 naming what failed.
 */
const kind = testDialect === 'postgres' ? 'pg-boss' : 'in-process';
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function app(...args: Parameters<typeof createTestApp>): Promise<TestApp> {
  const t = await createTestApp(...args);
  cleanup.push(() => t.close());
  return t;
}

async function readyz(t: TestApp): Promise<{ status: number; body: ReadinessBody; cache: unknown }> {
  const res = await t.app.inject({ method: 'GET', url: '/readyz' });
  return { status: res.statusCode, body: res.json<ReadinessBody>(), cache: res.headers['cache-control'] };
}

describe('/readyz', () => {
  it('is ready with the database answering and no scheduler in this instance (BACKGROUND_SYNC=off)', async () => {
    const t = await app();
    expect(await readyz(t)).toEqual({
      status: 200,
      cache: 'no-store',
      body: {
        success: true,
        message: 'ready',
        checks: { database: { ok: true }, queue: { ok: true, kind, state: 'off' } },
      },
    });
    const live = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(live.statusCode).toBe(200);
  });

  it('is ready while the queue runs, and answers 503 naming the queue once it stopped taking jobs', async () => {
    let jobs: SyncJobs | undefined;
    const t = await app(
      {},
      {
        syncJobs: {
          enabled: true,
          tickMs: 0,
          pgBoss: { cron: false, pollingIntervalSeconds: 0.5 },
          expose: (j) => (jobs = j),
        },
      },
    );
    const running = await readyz(t);
    expect(running.status).toBe(200);
    expect(running.body.checks.queue).toEqual({ ok: true, kind, state: 'running' });

    // Draining before a shutdown: no new jobs, so no new traffic either.
    await jobs!.queue.stopWorkers();
    const draining = await readyz(t);
    expect(draining.status).toBe(503);
    expect(draining.body).toEqual({
      success: false,
      message: `Not ready: the job queue (${kind}) is not running.`,
      checks: { database: { ok: true }, queue: { ok: false, kind, state: 'stopped' } },
    });
  });

  it('answers 503 naming the database when it does not answer, while /healthz stays live', async () => {
    const database = await createTestDb();
    cleanup.push(() => database.close());
    const t = await app({}, { db: database.db });
    expect((await readyz(t)).status).toBe(200);

    await database.db.close();
    const down = await readyz(t);
    expect(down.status).toBe(503);
    expect(down.body.success).toBe(false);
    expect(down.body.message).toMatch(/^Not ready: the database did not answer \(.+\)\.$/);
    expect(down.body.checks.database.ok).toBe(false);
    expect(down.body.checks.database.error).toBeTruthy();
    expect(down.body.checks.queue).toEqual({ ok: true, kind, state: 'off' });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
