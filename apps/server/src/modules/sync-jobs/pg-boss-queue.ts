import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { QueueDeps, SyncQueue } from './job-queue';

export interface PgBossQueueOptions {
  connectionString: string;
  /** The PostgreSQL schema of pg-boss's tables (default `pgboss_pipsense`), apart from the app's. */
  schema?: string;
  /** Workers of the sync queue in this instance (the global cap per instance; default 4). */
  workers?: number;
  /** How often an idle worker looks for a job (seconds, default 2; pg-boss allows ≥ 0.5). */
  pollingIntervalSeconds?: number;
  /** A sync job running longer than this is taken as lost (its instance died) and retried (default 15 min). */
  expireInSeconds?: number;
  /** pg-boss maintenance (expiry of lost jobs) every so many seconds (default 60). */
  maintenanceIntervalSeconds?: number;
  /** A finished job moves to pg-boss's `archive` table after this many seconds (pg-boss's default: 12 hours). */
  archiveCompletedAfterSeconds?: number;
  /** Retries of a job that failed unexpectedly, with exponential backoff from retryDelay seconds. */
  retryLimit?: number;
  retryDelay?: number;
  /** Run the one cron schedule (a tick every minute); tests tick by hand. Default true. */
  cron?: boolean;
  /**
   * The queues' names: the tick's and the jobs' (default the background sync's). Another scheduled job of the app
   * (the coach's weekly review) runs on queues of its own names, with the same scheduling and once-per-user rule.
   */
  names?: { tick: string; jobs: string };
  /** The pg-boss connections' application name (default `pipsense-sync`). */
  applicationName?: string;
}

const SYNC_TICK_QUEUE = 'pipsense-sync-tick';
const SYNC_JOBS_QUEUE = 'pipsense-sync-user';
export { SYNC_JOBS_QUEUE as SYNC_QUEUE };
/** The PostgreSQL advisory lock (`hashtextextended` of this text) held while an instance sets pg-boss up. */
const SETUP_LOCK = 'pipsense-pg-boss-setup';
/** Jobs inserted by one statement of a tick. */
const SEND_BATCH = 500;

/** Runs `work` holding SETUP_LOCK on a connection of its own (released with it, should the instance die). */
async function oneInstanceAtATime(connectionString: string, work: () => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString, application_name: 'pipsense-sync-setup' });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [SETUP_LOCK]);
    await work();
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL: one cron schedule on one queue (a tick every minute, run by one instance) enqueues the due users on
 * the sync queue, each with its user id as singleton key on a `stately` queue: at most one job per user waiting and
 * one running, across every instance. A job whose instance dies expires (pg-boss
 * maintenance in any instance) and is retried by another instance; one that throws or outlives its expiry is retried
 * with backoff (a sync that outlives it goes on: the lease keeps the retry from running beside it). The user's lease (sync_schedules) guards the sync itself.
 */
export function createPgBossQueue(deps: QueueDeps, options: PgBossQueueOptions): SyncQueue {
  const TICK_QUEUE = options.names?.tick ?? SYNC_TICK_QUEUE;
  const SYNC_QUEUE = options.names?.jobs ?? SYNC_JOBS_QUEUE;
  const workers = options.workers ?? 4;
  const schema = options.schema ?? 'pgboss_pipsense';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`pg-boss schema must be a plain identifier, got ${schema}`);
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema,
    max: workers + 2,
    application_name: options.applicationName ?? 'pipsense-sync',
    schedule: options.cron !== false,
    supervise: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
    ...(options.archiveCompletedAfterSeconds === undefined
      ? {}
      : { archiveCompletedAfterSeconds: options.archiveCompletedAfterSeconds }),
  });
  boss.on('error', (err) => deps.log(err, { step: 'pg-boss' }));
  /** Started, workers on, not stopping (readiness). */
  let taking = false;
  boss.on('stopped', () => (taking = false));
  const polling = options.pollingIntervalSeconds ?? 2;
  let local = 0;
  const waiters: Array<() => void> = [];
  const settle = () => {
    if (local === 0) for (const w of waiters.splice(0)) w();
  };

  /** This instance's sync workers: told to look for jobs at once after a tick, and again after each job. */
  const workerIds: string[] = [];
  const wake = () => {
    for (const id of workerIds) boss.notifyWorker(id);
  };

  const tick = async (): Promise<number> => {
    let n = 0;
    const due = await deps.due();
    // In batches, one statement each: a user already queued (or running) is refused by its singleton key
    // (`ON CONFLICT DO NOTHING` on the stately queue's unique indexes). pg-boss's insert returns nothing, so the
    // ids are chosen here and the ones that went in are counted.
    for (let i = 0; i < due.length; i += SEND_BATCH) {
      const jobs = due
        .slice(i, i + SEND_BATCH)
        .map((userId) => ({ id: randomUUID(), name: SYNC_QUEUE, data: { userId }, singletonKey: userId }));
      await boss.insert(jobs);
      const { rows } = await boss
        .getDb()
        .executeSql(`select count(*)::int as n from ${schema}.job where name = $1 and id = any($2::uuid[])`, [
          SYNC_QUEUE,
          jobs.map((j) => j.id),
        ]);
      n += (rows[0] as { n: number }).n;
    }
    if (n > 0) wake();
    return n;
  };

  return {
    kind: 'pg-boss',
    async start() {
      // Instances starting together set pg-boss up one after another: two `createQueue` of one queue at once
      // deadlock in PostgreSQL (each creates the queue's partition), and the instance that loses fails to start.
      await oneInstanceAtATime(options.connectionString, async () => {
        await boss.start();
        await boss.createQueue(TICK_QUEUE, { name: TICK_QUEUE, policy: 'short', expireInSeconds: 300 });
        await boss.createQueue(SYNC_QUEUE, {
          name: SYNC_QUEUE,
          policy: 'stately',
          retryLimit: options.retryLimit ?? 5,
          retryDelay: options.retryDelay ?? 30,
          retryBackoff: true,
          expireInSeconds: options.expireInSeconds ?? 15 * 60,
        });
        if (options.cron !== false) await boss.schedule(TICK_QUEUE, '* * * * *');
      });
      await boss.work(TICK_QUEUE, { pollingIntervalSeconds: polling }, async () => {
        await tick();
      });
      for (let i = 0; i < workers; i += 1) {
        // The handler learns its worker's id once `work` resolves, before any job can reach it.
        const self: { id?: string } = {};
        self.id = await boss.work<{ userId: string }>(
          SYNC_QUEUE,
          { pollingIntervalSeconds: polling, batchSize: 1 },
          async ([job]) => {
            if (!job) return;
            local += 1;
            try {
              await deps.run(job.data.userId);
            } finally {
              local -= 1;
              settle();
              // pg-boss waits a polling interval after every job, found or not: a worker that just ran one looks
              // for the next at once (one job per worker per 2 s would cap an instance at 120 jobs a minute).
              if (self.id) boss.notifyWorker(self.id);
            }
          },
        );
        workerIds.push(self.id);
      }
      taking = true;
    },
    async stopWorkers() {
      taking = false;
      workerIds.length = 0;
      await boss.offWork(TICK_QUEUE);
      await boss.offWork(SYNC_QUEUE);
    },
    async stop() {
      taking = false;
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
    tick,
    async idle() {
      if (local > 0) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    running: () => taking,
    /**
     * The user's sync jobs in any state, waiting, running, retried or done and archived (pg-boss keeps finished jobs
     * in `archive` for days), through the app's own connection: on the one database pg-boss shares with the app, so
     * it works on an instance whose queue never started (BACKGROUND_SYNC=off) and inside the deletion's transaction.
     * A running job deleted here ends as a job pg-boss no longer knows, which it ignores. pg-boss holds no schedule of
     * the user (its one schedule is the tick's; a user's is a row of `sync_schedules`).
     */
    async forget(userId, db) {
      const { rows } = await sql<{ job: string | null }>`select to_regclass(${`${schema}.job`})::text as job`.execute(
        db,
      );
      if (!rows[0]?.job) return 0;
      let n = 0;
      for (const table of ['job', 'archive']) {
        const result = await sql`
          delete from ${sql.table(`${schema}.${table}`)}
          where name = ${SYNC_QUEUE} and (singleton_key = ${userId} or data->>'userId' = ${userId})
        `.execute(db);
        n += Number(result.numAffectedRows ?? 0);
      }
      return n;
    },
  };
}
