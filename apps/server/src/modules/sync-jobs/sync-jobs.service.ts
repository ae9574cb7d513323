import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  DEFAULT_SYNC_INTERVAL,
  SYNC_INTERVAL_MINUTES,
  SYNC_INTERVALS,
  type SyncInterval,
  type SyncStatus,
} from '@pipsense/contract';
import type { SettingsService } from '../settings';
import type { TradingService } from '../trading';
import { createInProcessQueue, type QueueDeps, type SyncQueue } from './job-queue';
import { createPgBossQueue, type PgBossQueueOptions } from './pg-boss-queue';
import { createSyncRunner, type SyncRunnerOptions, type SyncWork } from './sync-runner';
import { createSyncScheduleRepository } from './sync-schedule.repository';
import { userRowsDeletion } from '../../db/user-data';
import type { SyncJobsTables } from './tables';

export interface SyncJobsOptions extends SyncRunnerOptions {
  /** Start the scheduler (timer or pg-boss workers) with the app: server.ts does; tests and tools choose. */
  enabled?: boolean;
  /** SQLite: ms between ticks (default 60 s; 0 = tick only by hand). */
  tickMs?: number;
  /** PostgreSQL: pg-boss tuning (tests shorten polling and expiry, turn the cron off). */
  pgBoss?: Omit<PgBossQueueOptions, 'connectionString'>;
  /** Replaces the sync itself (tests count or fail syncs without OANDA). */
  work?: SyncWork;
  /** Handed the module once built (tests tick it and wait for it). */
  expose?: (jobs: SyncJobs) => void;
  /**
   * This process is the only one on the database (SQLite with the data directory's lock, decision 017; server.ts
   * says so): a sync lease another owner holds was left by a process that ended and is released at start
   * (`releaseLeftLeases`), so a crash before a restart blocks no Sync button.
   */
  onlyInstance?: boolean;
}

export interface SyncJobsDeps extends SyncJobsOptions {
  db: Kysely<SyncJobsTables>;
  /** DATABASE_URL: pg-boss on PostgreSQL; unset: the in-process queue. */
  databaseUrl?: string | undefined;
  trading: Pick<TradingService, 'syncAccounts' | 'syncTrades'>;
  settings: Pick<SettingsService, 'oandaCredentials' | 'connectedUsers' | 'connectedSince'>;
  now: () => Date;
  log: (err: unknown, context: Record<string, unknown>) => void;
  /**
   * After a background sync: the Overview's snapshots brought up to date in the job, so the trader's next view
   * reads them (analytics `refreshSnapshots`). A failure here is logged; the sync itself succeeded.
   */
  afterSync?: (userId: string) => Promise<unknown>;
}

/** Users read per query when a tick looks for the due ones. */
const DUE_PAGE = 1000;

const intervalOf = (minutes: number): SyncInterval =>
  SYNC_INTERVALS.find((i) => SYNC_INTERVAL_MINUTES[i] === minutes) ?? DEFAULT_SYNC_INTERVAL;

/**
 * Background sync (docs/PRODUCT.md, Beyond the base): the schedule per user, its status, the job queue that runs it,
 * and the manual syncs' bookkeeping (the Sync buttons go through `manualTrading`).
 */
export function createSyncJobs(deps: SyncJobsDeps) {
  const schedules = createSyncScheduleRepository(deps.db, deps.settings);
  const { trading, now } = deps;
  const work: SyncWork =
    deps.work ??
    (async (userId, onPage) => {
      await trading.syncAccounts(userId);
      await trading.syncTrades(userId, { onPage });
      await deps.afterSync?.(userId).catch((err: unknown) => deps.log(err, { userId, step: 'overview snapshots' }));
    });
  /** This instance's name in the leases it holds. */
  const owner = randomUUID();
  const runner = createSyncRunner({
    ...deps,
    schedules,
    work,
    token: async (userId) => (await deps.settings.oandaCredentials(userId))?.accessToken || undefined,
    owner,
  });
  const queueDeps = {
    // Every user due now, a page at a time: a tick may find more than a page.
    due: async () => {
      const at = now();
      const all: string[] = [];
      for (;;) {
        const page = await schedules.due(at, DUE_PAGE, all.at(-1));
        all.push(...page);
        if (page.length < DUE_PAGE) return all;
      }
    },
    run: async (userId: string) => {
      const outcome = await runner.runScheduled(userId);
      // Another sync of the user holds the lease while it is still due: let the queue retry it later.
      if (outcome === 'skipped' && deps.databaseUrl && (await schedules.isDue(userId, now())))
        throw new Error(`sync of ${userId} is busy elsewhere; retried later`);
      return outcome;
    },
    log: deps.log,
  };
  const queue: SyncQueue = deps.databaseUrl
    ? createPgBossQueue(queueDeps, { ...deps.pgBoss, connectionString: deps.databaseUrl, workers: deps.maxConcurrent })
    : createInProcessQueue(queueDeps, { tickMs: deps.tickMs });

  /** The other jobs per user run on this machinery (`scheduledJob`): their queued jobs go with an account too. */
  const others: SyncQueue[] = [];

  let started = false;
  let startedOnce = false;
  const jobs = {
    queue,
    runner,

    async status(userId: string): Promise<SyncStatus> {
      const [row, connected] = await Promise.all([schedules.get(userId), schedules.connected(userId)]);
      const t = now();
      const leased = row?.lease_until != null && row.lease_until >= t.toISOString();
      const minutes = row?.interval_minutes ?? SYNC_INTERVAL_MINUTES[DEFAULT_SYNC_INTERVAL];
      const paused = row?.paused_at != null;
      return {
        interval: intervalOf(minutes),
        connected,
        lastSyncedAt: row?.last_synced_at ?? null,
        nextDueAt: connected && minutes > 0 && !paused ? (row?.next_due_at ?? t.toISOString()) : null,
        running:
          leased && row?.started_at
            ? { startedAt: row.started_at, pages: row.progress_pages, trades: row.progress_trades }
            : null,
        lastError: row?.last_error ?? null,
        failures: row?.failures ?? 0,
        paused,
        now: t.toISOString(),
      };
    },

    async setSchedule(userId: string, interval: SyncInterval): Promise<SyncStatus> {
      await schedules.setInterval(userId, SYNC_INTERVAL_MINUTES[interval], now());
      return jobs.status(userId);
    },

    /** The trading service with its two syncs recorded in the status (for the trading routes' Sync buttons). */
    manualTrading<T extends Pick<TradingService, 'syncAccounts' | 'syncTrades'>>(service: T): T {
      return {
        ...service,
        syncAccounts: (userId: string) => runner.runManual(userId, () => service.syncAccounts(userId)),
        syncTrades: (userId: string, options: Parameters<TradingService['syncTrades']>[1] = {}) =>
          runner.runManual(userId, (onPage) => service.syncTrades(userId, { ...options, onPage })),
      };
    },

    /**
     * The module's part of an account's deletion (db/user-data.ts): the user's `sync_schedules` row, and the user's
     * jobs removed from the queue (pg-boss's tables on PostgreSQL) in the deletion's one transaction.
     */
    userData: userRowsDeletion<SyncJobsTables>(['sync_schedules'], async (trx, userId) => {
      let removed = 0;
      for (const q of [queue, ...others]) removed += await q.forget(userId, trx);
      return removed;
    }),

    /**
     * Another job per user on the same scheduling (the coach's weekly review): a tick finds the due users and enqueues
     * each once, in process on SQLite, on pg-boss queues of its own names on PostgreSQL (one job per user waiting and
     * one running across every instance; the cron tick run by one instance). The caller starts and stops it.
     */
    scheduledJob(name: string, job: QueueDeps): SyncQueue {
      const scheduled = deps.databaseUrl
        ? createPgBossQueue(job, {
            ...deps.pgBoss,
            connectionString: deps.databaseUrl,
            names: { tick: `pipsense-${name}-tick`, jobs: `pipsense-${name}-user` },
            applicationName: `pipsense-${name}`,
            workers: 1,
          })
        : createInProcessQueue(job, { tickMs: deps.tickMs });
      others.push(scheduled);
      return scheduled;
    },

    /**
     * At start, when `onlyInstance`: releases the leases other owners left (a process that crashed mid-sync);
     * resolves to how many. Elsewhere nothing: a dead instance's lease runs out within `leaseMs`.
     */
    async releaseLeftLeases(): Promise<number> {
      return deps.onlyInstance ? schedules.releaseLeftLeases(owner, now()) : 0;
    },

    /** Starts the scheduler and the workers of this instance. */
    async start() {
      await queue.start();
      started = true;
      startedOnce = true;
    },
    /**
     * The queue as `/readyz` reports it: `off` when this instance runs no scheduler (BACKGROUND_SYNC=off: the Sync
     * buttons still work), `running` while it takes jobs, `stopped` once it stopped or is draining.
     */
    queueState(): 'off' | 'running' | 'stopped' {
      if (!startedOnce) return 'off';
      return started && queue.running() ? 'running' : 'stopped';
    },
    /** Stops them, waiting for the syncs this instance runs; nothing when never started. */
    async stop() {
      if (!started) return;
      started = false;
      await queue.stop();
    },
  };
  return jobs;
}
export type SyncJobs = ReturnType<typeof createSyncJobs>;
