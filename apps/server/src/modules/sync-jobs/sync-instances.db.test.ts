import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { envWith } from '../../config/env';
import { injectApi, testDialect } from '../../test/harness';
import { saveOanda } from '../../test/oanda-user';
import type { SyncJobs, SyncJobsOptions } from './sync-jobs.service';
import { userIdOf } from '../../test/session-subject';
import { until } from '../../test/until';

/*
 * Two PipSense instances on one PostgreSQL database (pg-boss in its own schema): the same user's schedule fires once,
 * not twice, and a job whose instance stopped answering is picked up by the other. PostgreSQL only.
 */
const adminUrl = process.env.PIPSENSE_TEST_PG;
const START = Date.UTC(2026, 0, 5, 12, 0);

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function database(): Promise<string> {
  const name = `pipsense_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanup.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

interface Instance {
  app: FastifyInstance;
  jobs: SyncJobs;
}

async function instance(url: string, clock: { at: number }, options: SyncJobsOptions): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-instance-'));
  const env = envWith({
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dataDir, 'no-web'),
    EXCURSION_REQUESTS_PER_MINUTE: '0',
    // Instances of one deployment share their secrets (each would otherwise make its own in its DATA_DIR).
    JWT_SECRET: 'a-jwt-secret-shared-by-both-instances-of-this-test',
    ENCRYPTION_KEY: 'ab'.repeat(32),
  });
  let jobs: SyncJobs | undefined;
  const app = await buildApp({
    env,
    logger: false,
    credentialLimit: 1000,
    now: () => new Date(clock.at),
    syncJobs: {
      enabled: true,
      tokenGapMs: 0,
      pgBoss: { cron: false, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, retryDelay: 1 },
      ...options,
      expose: (j) => (jobs = j),
    },
  });
  cleanup.push(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { app, jobs: jobs! };
}

/** Registers on one instance, signs in on the other, saves an OANDA token; returns the user's id. */
async function user(on: FastifyInstance, other: FastifyInstance, name: string): Promise<string> {
  const creds = { username: name, email: `${name}@example.com`, password: 'correct horse battery' };
  expect((await on.inject({ method: 'POST', url: '/api/v1/auth/register', payload: creds })).statusCode).toBe(200);
  const login = await other.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username: name, password: creds.password },
  });
  expect(login.statusCode).toBe(200);
  const token = login.json<{ token: string }>().token;
  await saveOanda(injectApi(other, token), { oanda: { accessToken: `token-${name}` } });
  return userIdOf(token);
}

describe.skipIf(testDialect !== 'postgres')('two instances on one PostgreSQL database', () => {
  it("fires each user's schedule once, not twice, when both instances tick at once", async () => {
    const url = await database();
    const clock = { at: START };
    const calls: Array<{ by: string; userId: string }> = [];
    const work =
      (by: string): SyncJobsOptions['work'] =>
      async (userId) => {
        calls.push({ by, userId });
        await new Promise((r) => setTimeout(r, 100));
      };
    const a = await instance(url, clock, { work: work('a') });
    const b = await instance(url, clock, { work: work('b') });
    const users: string[] = [];
    for (let i = 0; i < 6; i += 1) users.push(await user(a.app, b.app, `two${i}${randomUUID().slice(0, 6)}`));

    const [fromA, fromB] = await Promise.all([a.jobs.queue.tick(), b.jobs.queue.tick()]);
    // Each user is queued once; a second job is accepted only when the first was already taken by a worker (one
    // waiting and one running per user), and then finds the user leased or synced: it runs nothing (checked below).
    expect(fromA + fromB).toBeGreaterThanOrEqual(6);
    await until(() => calls.length >= 6, 'six syncs', { ms: 20_000 });
    // Both instances tick again while (or after) the jobs run: nothing is due, nothing runs twice.
    expect((await a.jobs.queue.tick()) + (await b.jobs.queue.tick())).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(calls.map((c) => c.userId).sort()).toEqual([...users].sort());

    // 15 minutes later every user is due once more.
    clock.at = START + 15 * 60_000;
    await Promise.all([a.jobs.queue.tick(), b.jobs.queue.tick()]);
    await until(() => calls.length >= 12, 'the second round', { ms: 20_000 });
    await new Promise((r) => setTimeout(r, 1000));
    expect(calls).toHaveLength(12);
  }, 60_000);

  it('picks up the job of an instance that stopped answering once it expires', async () => {
    const url = await database();
    const clock = { at: START };
    const calls: Array<{ by: string; userId: string }> = [];
    let unblock!: () => void;
    const hung = new Promise<void>((resolve) => (unblock = resolve));
    cleanup.push(async () => unblock());
    const leaseMs = 60_000;
    const pgBoss = {
      cron: false,
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
      retryDelay: 1,
      expireInSeconds: 2,
    };
    // Instance a's only worker takes the job and never comes back (as if its process had died mid-sync): its lease's
    // heartbeat never beats either.
    const a = await instance(url, clock, {
      maxConcurrent: 1,
      leaseMs,
      every: () => () => {},
      pgBoss,
      work: async (userId) => {
        calls.push({ by: 'a', userId });
        await hung;
      },
    });
    const id = await user(a.app, a.app, `lost${randomUUID().slice(0, 6)}`);
    expect(await a.jobs.queue.tick()).toBe(1);
    await until(() => calls.length === 1, 'instance a to take the job', { ms: 20_000 });
    // Then it stops taking jobs, the way a dead instance does; its sync never finishes.
    await a.jobs.queue.stopWorkers();

    // Instance b starts; a's lease runs out on the clock, pg-boss expires a's job and retries it: b runs it.
    const b = await instance(url, clock, {
      leaseMs,
      pgBoss,
      work: async (userId) => {
        calls.push({ by: 'b', userId });
      },
    });
    clock.at = START + leaseMs + 1000;
    await until(() => calls.length === 2, 'instance b to run the expired job', { ms: 20_000 });
    expect(calls).toEqual([
      { by: 'a', userId: id },
      { by: 'b', userId: id },
    ]);
    // The call is recorded as the sync starts; its outcome is stored just after.
    let status = await b.jobs.status(id);
    for (let i = 0; i < 100 && status.running !== null; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      status = await b.jobs.status(id);
    }
    expect(status).toMatchObject({ lastSyncedAt: new Date(clock.at).toISOString(), running: null, failures: 0 });
  }, 60_000);
});
