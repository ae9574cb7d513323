import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { SyncStatus } from '@pipsense/contract';
import { startOandaSim, DEMO_TOKEN, type OandaSim } from '@pipsense/oanda-sim';
import { buildApp } from '../../app';
import { envWith, type Env } from '../../config/env';
import { createDb, type Db } from '../../db/client';
import { createPgDatabase, testDialect } from '../../test/harness';
import type { InstanceMessage, InstanceProcessConfig } from '../../test/instance-process';
import { httpApi, saveOanda, syncOanda } from '../../test/oanda-user';
import { reachable } from '../../test/reachable';
import { overviewEngineRuns } from '../analytics/analytics.service';
import type { SyncJobs, SyncJobsOptions } from './sync-jobs.service';
import { userIdOf } from '../../test/session-subject';
import { until } from '../../test/until';

/*
 * Past one machine: PipSense instances listening on ports of their own, sharing one PostgreSQL database (pg-boss in its
 * own schema) and one Redis (rate limits), with the secrets every instance of a deployment shares. A user registered on
 * one signs in on the other; a sync started on both at once ends with exactly the broker's trades; an instance
 * SIGKILLed mid-sync has its job picked up by the other; the Overview's first view after a change is computed once
 * across both. Runs when PostgreSQL (PIPSENSE_TEST_PG) and Redis answer.
 */
const redisUrl = process.env.PIPSENSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await reachable(redisUrl, 6379);
const repoRoot = fileURLToPath(new URL('../../../../..', import.meta.url));
const childScript = fileURLToPath(new URL('../../test/instance-process.ts', import.meta.url));

const SIM_NOW = Date.parse('2025-10-06T12:00:00.000Z');
const SECRETS = { JWT_SECRET: randomBytes(48).toString('base64url'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };
/** pg-boss tuned for a test: no cron (ticks by hand), quick polling, maintenance every second. */
const PG_BOSS = { cron: false, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, retryDelay: 1 };

let sim: OandaSim;
let database: { url: string; drop: () => Promise<void> };
let db: Db;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
  sim?.faults.reset();
});

interface Instance {
  app: FastifyInstance;
  jobs: SyncJobs;
  base: string;
}

function instanceEnv(): Partial<Record<keyof Env, string>> {
  return { DATABASE_URL: database.url, REDIS_URL: redisUrl, OANDA_PRACTICE_URL: sim.url, ...SECRETS };
}

/** An instance in this process, listening on a free port of its own. */
async function instance(options: SyncJobsOptions = {}): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-instance-'));
  const env = envWith({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dataDir, 'no-web'),
    EXCURSION_REQUESTS_PER_MINUTE: '0',
    ...instanceEnv(),
  });
  let jobs: SyncJobs | undefined;
  const app = await buildApp({
    env,
    logger: false,
    credentialLimit: 1000,
    oanda: { retries: 0 },
    syncJobs: { enabled: true, tokenGapMs: 0, pgBoss: PG_BOSS, ...options, expose: (j) => (jobs = j) },
  });
  cleanup.push(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the instance has no TCP address');
  return { app, jobs: jobs!, base: `http://127.0.0.1:${address.port}` };
}

/** An instance in a child process (test/instance-process.ts), which the test can SIGKILL. */
async function instanceProcess(
  syncJobs: InstanceProcessConfig['syncJobs'],
): Promise<{ base: string; child: ChildProcess; tick: () => Promise<number> }> {
  const config: InstanceProcessConfig = { env: instanceEnv(), syncJobs };
  const child = fork(childScript, [JSON.stringify(config)], {
    cwd: repoRoot,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const next = () =>
    new Promise<InstanceMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the instance process did not answer within 60 s')), 60_000);
      child.once('message', (message: InstanceMessage) => {
        clearTimeout(timer);
        resolve(message);
      });
      child.once('exit', (code, signal) => reject(new Error(`the instance process exited (${code ?? signal})`)));
    });
  const ready = await next();
  if (!('port' in ready)) throw new Error(`the instance process failed to start: ${JSON.stringify(ready)}`);
  return {
    base: `http://127.0.0.1:${ready.port}`,
    child,
    async tick() {
      const answer = next();
      child.send({ tick: true });
      const message = await answer;
      if (!('ticked' in message)) throw new Error(`the instance process failed to tick: ${JSON.stringify(message)}`);
      return message.ticked;
    },
  };
}

/** Registers on one instance and signs in on another: the session token the second one issued. */
async function registerAndSignIn(on: string, signIn: string): Promise<{ token: string; userId: string }> {
  const name = `scale${randomUUID().slice(0, 8)}`;
  const password = 'correct horse battery';
  const reg = await httpApi(on)({
    method: 'POST',
    path: '/api/v1/auth/register',
    body: { username: name, email: `${name}@example.com`, password },
  });
  expect(reg.status, reg.text).toBe(200);
  const login = await httpApi(signIn)({
    method: 'POST',
    path: '/api/v1/auth/login',
    body: { username: name, password },
  });
  expect(login.status, login.text).toBe(200);
  const token = (JSON.parse(login.text) as { token: string }).token;
  return { token, userId: userIdOf(token) };
}

/** Every trade at the broker as `account|id|state`, sorted. */
function brokerTrades(): string[] {
  return sim.accountIds.flatMap((id) => sim.state.trades(id, 'ALL').map((t) => `${id}|${t.id}|${t.state}`)).sort();
}

/** Every trade stored for the user, in the same form (duplicates would show). */
async function storedTrades(userId: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('trades')
    .select(['account_key', 'trade_id', 'state'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => `${r.account_key.split(':').at(-1)}|${r.trade_id}|${r.state}`).sort();
}

async function status(base: string, token: string): Promise<SyncStatus> {
  const res = await httpApi(base, token)({ method: 'GET', path: '/api/v1/sync/status' });
  expect(res.status, res.text).toBe(200);
  return (JSON.parse(res.text) as { data: SyncStatus }).data;
}

const slowly = { ms: 45_000, everyMs: 100 };

describe.skipIf(testDialect !== 'postgres' || !redisUp)(
  'instances on different ports sharing PostgreSQL and Redis',
  () => {
    beforeAll(async () => {
      // The simulator's clock stands still: every sync sees the same book.
      sim = await startOandaSim({ accounts: 2, tradesPerAccount: 1000, historyDays: 90, seed: 23, now: () => SIM_NOW });
    });
    afterAll(async () => {
      await sim?.close();
    });
    // A database of its own for each test: pg-boss keeps a queue's options (its expiry) from the first instance
    // that created it.
    beforeEach(async () => {
      database = await createPgDatabase();
      const dbDir = mkdtempSync(join(tmpdir(), 'pipsense-scale-'));
      db = createDb({ dataDir: dbDir, databaseUrl: database.url });
      cleanup.push(async () => {
        await db.close();
        await database.drop();
        rmSync(dbDir, { recursive: true, force: true });
      });
    });

    it('starts two instances at once on an empty database: one migrates, both set pg-boss up, both are ready', async () => {
      for (let round = 0; round < 3; round += 1) {
        if (round > 0) {
          for (const c of cleanup.splice(0).reverse()) await c();
          database = await createPgDatabase();
          cleanup.push(database.drop);
        }
        const both = await Promise.all([instance(), instance()]);
        for (const { base } of both) {
          const ready = await fetch(`${base}/readyz`);
          expect(ready.status).toBe(200);
        }
      }
    }, 90_000);

    it('registers on one instance, signs in on the other and uses that token on both', async () => {
      const a = await instance();
      const b = await instance();
      expect(a.base).not.toBe(b.base);
      const { token } = await registerAndSignIn(a.base, b.base);
      for (const base of [b.base, a.base]) {
        const me = await httpApi(base, token)({ method: 'GET', path: '/api/v1/auth/me' });
        expect(me.status, me.text).toBe(200);
      }
      for (const base of [a.base, b.base]) {
        const ready = await fetch(`${base}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({ checks: { queue: { kind: 'pg-boss', state: 'running' } } });
      }
    });

    it("ends with exactly the broker's trades when the Sync button is pressed on both instances at once", async () => {
      const a = await instance();
      const b = await instance();
      const { token, userId } = await registerAndSignIn(b.base, a.base);
      await saveOanda(httpApi(a.base, token), { oanda: { accessToken: DEMO_TOKEN } });
      await syncOanda(httpApi(b.base, token), 'accounts');
      // Slow pages, so that the two syncs overlap.
      sim.faults.delay(300, { match: /\/trades$/ });

      const press = (base: string) => httpApi(base, token)({ method: 'GET', path: '/api/v1/trade/sync_trade' });
      const results = await Promise.all([press(a.base), press(b.base)]);
      const statuses = results.map((r) => r.status).sort();
      // The user's lease (shared by every instance) lets one run; the other is told a sync is already running.
      expect(statuses).toEqual([200, 409]);
      expect(JSON.parse(results.find((r) => r.status === 409)!.text)).toMatchObject({ code: 'SYNC_IN_PROGRESS' });
      expect(await storedTrades(userId)).toEqual(brokerTrades());

      // Pressed again on both, one after the other finishes: still the broker's trades, none twice.
      sim.faults.reset();
      for (const r of await Promise.all([press(b.base), press(a.base)])) expect([200, 409]).toContain(r.status);
      expect(await storedTrades(userId)).toEqual(brokerTrades());
    }, 90_000);

    it('picks up the job of an instance SIGKILLed mid-sync, and ends with exactly the broker’s trades', async () => {
      const leaseMs = 3000;
      // The job expires well after the kill below (the pages take 4 s each), else the living instance would retry
      // it while its own sync still held the lease, and the backoff would outlast the wait.
      const pgBoss = { ...PG_BOSS, expireInSeconds: 15 };
      const dying = await instanceProcess({ tokenGapMs: 0, leaseMs, pgBoss });
      const { token, userId } = await registerAndSignIn(dying.base, dying.base);
      await saveOanda(httpApi(dying.base, token), { oanda: { accessToken: DEMO_TOKEN } });
      // Each page of trades takes a while: the sync is caught in the middle.
      // Long enough that the poll below sees the first page well before the last (two accounts sync at once).
      sim.faults.delay(4000, { match: /\/trades$/ });
      expect(await dying.tick()).toBe(1);
      await until(
        async () => (await status(dying.base, token)).running?.pages !== undefined,
        'the sync to start',
        slowly,
      );
      await until(
        async () => ((await status(dying.base, token)).running?.pages ?? 0) >= 1,
        'a first page of trades',
        slowly,
      );
      dying.child.kill('SIGKILL');
      await new Promise<void>((resolve) => dying.child.once('exit', () => resolve()));
      // Killed while its job ran (its status said so): trades stored, the job neither finished nor checkpointed.
      // (How many pages landed before the kill depends on the machine's load; the job is what must be taken over.)
      const partial = await storedTrades(userId);
      expect(partial.length).toBeGreaterThan(0);
      expect(
        await db.kysely
          .selectFrom('sync_schedules')
          .select('last_synced_at')
          .where('user_id', '=', userId)
          .executeTakeFirst(),
      ).toMatchObject({ last_synced_at: null });
      sim.faults.reset();

      // The other instance: pg-boss expires the dead instance's job and retries it once the lease has run out.
      const survivor = await instance({ leaseMs, pgBoss });
      await until(
        async () => {
          const s = await status(survivor.base, token);
          return s.lastSyncedAt !== null && s.running === null;
        },
        'the surviving instance to finish the sync',
        slowly,
      );
      expect(await storedTrades(userId)).toEqual(brokerTrades());
      expect(await status(survivor.base, token)).toMatchObject({ failures: 0, lastError: null, paused: false });
    }, 120_000);

    it('computes the first overview after a change once across both instances', async () => {
      const a = await instance();
      const b = await instance();
      const { token } = await registerAndSignIn(a.base, b.base);
      await saveOanda(httpApi(b.base, token), { oanda: { accessToken: DEMO_TOKEN } });
      await syncOanda(httpApi(a.base, token));
      const view = (base: string) =>
        httpApi(base, token)({ method: 'GET', path: '/api/v1/dashboard/metrics?timeZone=UTC' });
      const bothAtOnce = async () => {
        const before = overviewEngineRuns();
        const [fromA, fromB] = await Promise.all([view(a.base), view(b.base)]);
        expect(fromA.status, fromA.text).toBe(200);
        expect(fromB.status, fromB.text).toBe(200);
        const computedAt = (text: string) => (JSON.parse(text) as { data: { computedAt: string } }).data.computedAt;
        // Both read the one snapshot: the same computation time.
        expect(computedAt(fromA.text)).toBe(computedAt(fromB.text));
        return overviewEngineRuns() - before;
      };
      expect(await bothAtOnce()).toBe(1);
      expect(await bothAtOnce()).toBe(0);

      // A change at the broker, synced through instance b: the next first view computes once more, once.
      sim.openTrade(sim.accountIds[0]!, { instrument: 'EUR_USD', units: 1000 });
      await syncOanda(httpApi(b.base, token));
      expect(await bothAtOnce()).toBe(1);
      expect(await bothAtOnce()).toBe(0);
    }, 90_000);
  },
);
