/**
 * `queue` (past one machine): the background sync's job queue on PostgreSQL (pg-boss) with two PipSense
 * instances sharing one database. 1,000 users with schedules (400 every 5 minutes, 400 every 15, 200 hourly) on a
 * clock the bench moves one minute per tick through an hour (61 ticks); at each minute both instances tick at once
 * (the worst case: a scheduler firing in both), then the bench waits until the queue is empty. The sync itself is a
 * stub that records (user, minute, instance): the queue, the singleton keys, the users' leases and the workers are
 * what is measured, not OANDA.
 *
 * Goals: no user synced twice in a minute, none missed (every due user once per tick), each minute's jobs done
 * within the minute. Figures: jobs per tick, wall time per tick, jobs per second and per minute, each instance's
 * share, duplicate sends refused by the singleton keys.
 *
 * PostgreSQL from PIPSENSE_BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres); skipped when it does
 * not answer. Knobs: BENCH_QUEUE_USERS (1000), BENCH_QUEUE_MINUTES (60).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { createDb } from '../apps/server/src/db/client';
import { createCipher } from '../apps/server/src/lib/crypto';
import { createPgDatabase } from '../apps/server/src/test/harness';
import { SYNC_QUEUE } from '../apps/server/src/modules/sync-jobs/pg-boss-queue';
import type { SyncJobs } from '../apps/server/src/modules/sync-jobs/sync-jobs.service';
import { createBenchApp, type BenchApp } from './support/bench-app';
import { goal, heading, median, runBench } from './support/stats';

const pgAdmin = process.env.PIPSENSE_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const USERS = Number(process.env.BENCH_QUEUE_USERS ?? 1000);
const MINUTES = Number(process.env.BENCH_QUEUE_MINUTES ?? 60);
const START = Date.UTC(2026, 0, 5, 12, 0);
const MIN = 60_000;
/** pg-boss's schema (pg-boss-queue.ts default). */
const BOSS_SCHEMA = 'pgboss_pipsense';

/** The schedule of user i: 2 in 5 every 5 minutes, 2 in 5 every 15, 1 in 5 hourly. */
const intervalOf = (i: number) => (i % 5 < 2 ? 5 : i % 5 < 4 ? 15 : 60);

async function pgAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: pgAdmin, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

interface Run {
  userId: string;
  minute: number;
  by: 'a' | 'b';
}

async function main(): Promise<void> {
  if (!(await pgAnswers())) {
    heading(`queue: skipped (PostgreSQL does not answer at ${pgAdmin}; set PIPSENSE_BENCH_PG_URL)`);
    return;
  }
  const database = await createPgDatabase(pgAdmin);
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-bench-queue-'));
  const db = createDb({ dataDir, databaseUrl: database.url });
  const apps: BenchApp[] = [];
  try {
    const clock = { at: START };
    const runs: Run[] = [];
    const key = randomBytes(32);
    const shared = {
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      ENCRYPTION_KEY: key.toString('hex'),
    };
    const jobs: Partial<Record<'a' | 'b', SyncJobs>> = {};
    for (const by of ['a', 'b'] as const) {
      apps.push(
        await createBenchApp(shared, {
          now: () => new Date(clock.at),
          syncJobs: {
            enabled: true,
            tokenGapMs: 0,
            // The production pg-boss settings (4 workers an instance, polling every 2 s), minus the cron: the bench
            // ticks on its clock.
            pgBoss: { cron: false },
            work: async (userId) => {
              runs.push({ userId, minute: (clock.at - START) / MIN, by });
            },
            expose: (j) => (jobs[by] = j),
          },
        }),
      );
    }

    heading(`seeding ${USERS} users with an OANDA token and a schedule`);
    const cipher = createCipher(key);
    const stamp = new Date(START).toISOString();
    const users = Array.from({ length: USERS }, (_, i) => ({ id: randomUUID(), interval: intervalOf(i), i }));
    for (let from = 0; from < users.length; from += 500) {
      const batch = users.slice(from, from + 500);
      await db.kysely
        .insertInto('users')
        .values(
          batch.map((u) => ({
            id: u.id,
            username: `queue${u.i}`,
            username_key: `queue${u.i}`,
            email: `queue${u.i}@example.com`,
            password_hash: 'not-used-by-this-bench',
            created_at: stamp,
            updated_at: stamp,
          })),
        )
        .execute();
      await db.kysely
        .insertInto('user_info')
        .values(
          batch.map((u) => ({
            user_id: u.id,
            default_ai_platform: 'openai',
            default_trading_platform: 'OANDA',
            // A token of its own each: pacing is per token.
            oanda_access_token: cipher.encrypt(`token-${u.i}`, u.id),
            oanda_account_id: '',
            oanda_mode: 'demo',
            updated_at: stamp,
          })),
        )
        .execute();
      await db.kysely
        .insertInto('sync_schedules')
        .values(
          batch.map((u) => ({ user_id: u.id, interval_minutes: u.interval, next_due_at: stamp, updated_at: stamp })),
        )
        .execute();
    }
    const counts = [5, 15, 60].map((m) => `${users.filter((u) => u.interval === m).length} every ${m} min`);
    console.log(`${USERS} users: ${counts.join(', ')}; ${MINUTES + 1} ticks, both instances at each`);

    const waiting = async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(`${BOSS_SCHEMA}.job`)}
        where name = ${SYNC_QUEUE} and state in ('created', 'retry', 'active')`.execute(db.kysely);
      return rows[0]!.n;
    };

    heading('ticks (minute: due, sent, wall time until the queue is empty)');
    const ticks: Array<{ minute: number; due: number; sent: number; ms: number; tickMs: number }> = [];
    let twice = 0;
    let missed = 0;
    let unexpected = 0;
    const benchStart = performance.now();
    for (let minute = 0; minute <= MINUTES; minute += 1) {
      clock.at = START + minute * MIN;
      const due = new Set<string>(users.filter((u) => minute % u.interval === 0).map((u) => u.id));
      const started = performance.now();
      const [fromA, fromB] = await Promise.all([jobs.a!.queue.tick(), jobs.b!.queue.tick()]);
      const tickMs = performance.now() - started;
      const deadline = Date.now() + 5 * MIN;
      while ((await waiting()) > 0) {
        if (Date.now() > deadline) throw new Error(`minute ${minute}: the queue did not empty within 5 minutes`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await Promise.all([jobs.a!.queue.idle(), jobs.b!.queue.idle()]);
      const ms = performance.now() - started;
      const here = runs.filter((r) => r.minute === minute);
      const seen = new Map<string, number>();
      for (const r of here) seen.set(r.userId, (seen.get(r.userId) ?? 0) + 1);
      for (const [userId, n] of seen) {
        if (n > 1) twice += 1;
        if (!due.has(userId)) unexpected += 1;
      }
      for (const userId of due) if (!seen.has(userId)) missed += 1;
      ticks.push({ minute, due: due.size, sent: fromA + fromB, ms, tickMs });
      if (minute % 5 === 0 || minute === MINUTES)
        console.log(
          `minute ${String(minute).padStart(2)}: ${String(due.size).padStart(4)} due, ${String(fromA + fromB).padStart(4)} sent ` +
            `(a ${fromA}, b ${fromB}), ${here.length} run, ticks ${tickMs.toFixed(0)} ms, queue empty after ${ms.toFixed(0)} ms`,
        );
    }
    const wallS = (performance.now() - benchStart) / 1000;

    heading('figures');
    const total = runs.length;
    const dueTotal = ticks.reduce((n, t) => n + t.due, 0);
    const busiest = ticks.reduce((a, b) => (b.due > a.due ? b : a));
    const byA = runs.filter((r) => r.by === 'a').length;
    const jobsPerSecond = busiest.due / (busiest.ms / 1000);
    console.log(
      `jobs run: ${total} of ${dueTotal} due over ${MINUTES + 1} simulated minutes (${wallS.toFixed(1)} s real)`,
    );
    console.log(
      `jobs run per simulated minute: ${(total / ticks.length).toFixed(1)} on average, ${busiest.due} at most ` +
        `(minutes with jobs: median ${median(ticks.filter((t) => t.due > 0).map((t) => t.due))})`,
    );
    console.log(
      `busiest minute (${busiest.due} jobs): queue empty after ${(busiest.ms / 1000).toFixed(2)} s (the two ticks ` +
        `${busiest.tickMs.toFixed(0)} ms) = ${jobsPerSecond.toFixed(0)} jobs/s, ${Math.round(jobsPerSecond * 60)} jobs per real minute`,
    );
    console.log(
      `per tick, wall time until empty: median ${median(ticks.map((t) => t.ms)).toFixed(0)} ms, ` +
        `max ${Math.max(...ticks.map((t) => t.ms)).toFixed(0)} ms`,
    );
    console.log(`shared: instance a ran ${byA} (${((100 * byA) / total).toFixed(0)}%), b ${total - byA}`);
    const listed = ticks.reduce((n, t) => n + t.sent, 0);
    console.log(
      `jobs accepted by the queue: ${listed} for ${dueTotal} due (the other instance's duplicates refused by the ` +
        `singleton keys; ${listed - dueTotal} accepted after the user's sync had ended, then skipped: no longer due)`,
    );
    const later = ticks.filter((t) => t.minute > 0 && t.due === busiest.due);
    if (later.length > 0)
      console.log(
        `the same ${busiest.due} jobs at minute ${later[0]!.minute} (warm): queue empty after ` +
          `${(later[0]!.ms / 1000).toFixed(2)} s = ${(busiest.due / (later[0]!.ms / 1000)).toFixed(0)} jobs/s`,
      );

    goal('none twice (user synced more than once in a minute)', String(twice), twice === 0, '0');
    goal('none missed (due user not synced in its minute)', String(missed), missed === 0, '0');
    goal('none out of turn (synced when not due)', String(unexpected), unexpected === 0, '0');
    const slowest = Math.max(...ticks.map((t) => t.ms));
    goal(
      "each minute's jobs done within the minute",
      `${(slowest / 1000).toFixed(1)} s at most`,
      slowest < MIN,
      '< 60 s',
    );
  } finally {
    for (const app of apps) await app.close();
    await db.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
