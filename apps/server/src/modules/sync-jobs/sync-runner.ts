import { createHash } from 'node:crypto';
import { AppError, conflict } from '../../lib/errors';
import type { SyncScheduleRepository } from './sync-schedule.repository';

/** The work of one sync of a user: OANDA accounts, then trades (`onPage` after each page of trades is written). */
export type SyncWork = (userId: string, onPage: (trades: number) => void) => Promise<void>;

export interface SyncRunnerOptions {
  /** Background syncs running at once in this instance (default 4). */
  maxConcurrent?: number;
  /** Minimum gap between two syncs with one OANDA token, in ms (default 2 s). */
  tokenGapMs?: number;
  /** Failed background syncs in a row before the schedule is paused (default 5). */
  maxFailures?: number;
  /** The first retry's delay after a failure, doubled after each further failure (default 1 min, at most 1 h). */
  backoffMs?: number;
  /**
   * How long a sync's lease holds without being renewed (default 45 s). A running sync renews it every
   * `heartbeatMs`, so a live holder keeps it however long the sync takes, and the lease of an instance that died
   * runs out within this time: then another instance, or the same user's next Sync, takes it over.
   */
  leaseMs?: number;
  /** How often a running sync renews its lease (default a third of `leaseMs`: two renewals may fail in a row). */
  heartbeatMs?: number;
  /** The heartbeat's timer (default setInterval, unref'd); tests beat by hand. Returns what stops it. */
  every?: (ms: number, beat: () => void) => () => void;
  /** How often a running sync's progress (pages, trades so far) is stored, in ms (default 1 s). */
  progressEveryMs?: number;
}

export interface SyncRunnerDeps extends SyncRunnerOptions {
  schedules: SyncScheduleRepository;
  work: SyncWork;
  /** The user's OANDA token (pacing is per token); undefined when none is saved. */
  token: (userId: string) => Promise<string | undefined>;
  now: () => Date;
  /** This instance's name in leases. */
  owner: string;
  log: (err: unknown, context: Record<string, unknown>) => void;
}

export type RunOutcome = 'synced' | 'failed' | 'paused' | 'skipped';

export const TOKEN_REJECTED = 'OANDA rejected the token: update it in Settings → Trading Platforms.';
const TOKEN_CODES = new Set(['OANDA_AUTH', 'OANDA_FORBIDDEN', 'OANDA_NOT_CONFIGURED']);
const MAX_BACKOFF_MS = 60 * 60_000;
/** A lease not renewed for this long is free: its holder died (or stalled that long). */
const DEFAULT_LEASE_MS = 45_000;

const realTimer = (ms: number, beat: () => void): (() => void) => {
  const timer = setInterval(beat, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** The message a failed sync leaves in the status: the user-facing text of an AppError, else a generic one. */
function failureMessage(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return 'The sync failed unexpectedly. It will be retried.';
}

/**
 * Runs syncs of one instance under its rules: at most `maxConcurrent` background syncs at once, one sync per OANDA
 * token at a time with a minimum gap between them, the user's lease (shared by every instance) held while it runs,
 * and a failing background sync retried with exponential backoff, then paused.
 */
export function createSyncRunner(deps: SyncRunnerDeps) {
  const { schedules, now, owner } = deps;
  const maxConcurrent = deps.maxConcurrent ?? 4;
  const tokenGapMs = deps.tokenGapMs ?? 2000;
  const maxFailures = deps.maxFailures ?? 5;
  const backoffMs = deps.backoffMs ?? 60_000;
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const heartbeatMs = deps.heartbeatMs ?? Math.floor(leaseMs / 3);
  const every = deps.every ?? realTimer;
  const progressEveryMs = deps.progressEveryMs ?? 1000;

  /**
   * Renews the user's lease every `heartbeatMs` while a sync of this instance holds it; returns what stops it. A
   * renewal that finds the lease in other hands (this instance stalled past `leaseMs`, another took it over) is
   * logged: the sync goes on, its writes are idempotent upserts (docs/decisions/003-broker-numbers.md).
   */
  function heartbeat(userId: string): () => void {
    let renewing = false;
    return every(heartbeatMs, () => {
      if (renewing) return;
      renewing = true;
      schedules
        .renew(userId, owner, new Date(now().getTime() + leaseMs))
        .then((held) => {
          if (!held) deps.log(new Error('the sync lease was taken over'), { userId, step: 'sync heartbeat' });
        })
        .catch((err: unknown) => deps.log(err, { userId, step: 'sync heartbeat' }))
        .finally(() => {
          renewing = false;
        });
    });
  }

  /** Manual syncs running in this instance, per user, and what stops their lease's heartbeat. */
  const manual = new Map<string, { count: number; stop: () => void }>();
  let active = 0;
  const waiting: Array<() => void> = [];
  async function slot<T>(work: () => Promise<T>): Promise<T> {
    if (active >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  }

  /** Per token: the tail of its chain of syncs and when the last one ended (real time: pacing, not scheduling). */
  const tokens = new Map<string, { tail: Promise<unknown>; endedAt: number }>();
  async function paced<T>(token: string | undefined, work: () => Promise<T>): Promise<T> {
    if (!token) return work();
    const key = createHash('sha256').update(token).digest('hex');
    const entry = tokens.get(key) ?? { tail: Promise.resolve(), endedAt: 0 };
    tokens.set(key, entry);
    const run = entry.tail.then(async () => {
      const wait = entry.endedAt + tokenGapMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        return await work();
      } finally {
        entry.endedAt = Date.now();
      }
    });
    entry.tail = run.catch(() => undefined);
    return run;
  }

  async function withLease(userId: string, scheduled: boolean, work: () => Promise<void>): Promise<boolean> {
    if (!(await schedules.claim(userId, owner, now(), leaseMs, scheduled))) return false;
    const stop = heartbeat(userId);
    try {
      await work();
    } finally {
      stop();
    }
    return true;
  }

  /** Progress writes are coalesced: at most one in flight, the latest figures win. */
  function progressWriter(userId: string) {
    let pages = 0;
    let trades = 0;
    let writing: Promise<void> | undefined;
    let timer: NodeJS.Timeout | undefined;
    let lastAt = -Infinity;
    const flush = (): Promise<void> => {
      timer = undefined;
      lastAt = Date.now();
      writing = schedules
        .progress(userId, owner, pages, trades, new Date(now().getTime() + leaseMs))
        .catch((err: unknown) => deps.log(err, { userId, step: 'sync progress' }))
        .then(() => {
          writing = undefined;
        });
      return writing;
    };
    return {
      // The first page's progress is stored at once, later ones at most every progressEveryMs: on SQLite a
      // progress write waits for the trade writer's transaction, and the status line polls every few seconds.
      onPage: (count: number) => {
        pages += 1;
        trades += count;
        if (timer) return;
        const wait = Math.max(0, lastAt + progressEveryMs - Date.now());
        timer = setTimeout(() => void (writing ?? Promise.resolve()).then(flush), wait);
      },
      settled: async () => {
        if (timer) clearTimeout(timer);
        timer = undefined;
        await writing;
      },
    };
  }

  async function intervalOf(userId: string): Promise<number> {
    return (await schedules.get(userId))?.interval_minutes ?? 0;
  }

  return {
    /** One background sync of a user; 'skipped' when another sync holds the lease or it is no longer due. */
    async runScheduled(userId: string): Promise<RunOutcome> {
      return slot(async () => {
        const token = await deps.token(userId);
        if (!token) return 'skipped';
        return paced(token, async () => {
          let outcome: RunOutcome = 'skipped';
          await withLease(userId, true, async () => {
            const progress = progressWriter(userId);
            try {
              await deps.work(userId, progress.onPage);
              await progress.settled();
              const t = now();
              const minutes = await intervalOf(userId);
              await schedules.release(userId, owner, t, {
                last_synced_at: t.toISOString(),
                next_due_at: minutes > 0 ? new Date(t.getTime() + minutes * 60_000).toISOString() : null,
                last_error: null,
                failures: 0,
                paused_at: null,
              });
              outcome = 'synced';
            } catch (error) {
              await progress.settled();
              deps.log(error, { userId, step: 'background sync' });
              const t = now();
              const failures = ((await schedules.get(userId))?.failures ?? 0) + 1;
              const message = failureMessage(error);
              const tokenRejected = error instanceof AppError && TOKEN_CODES.has(error.code);
              if (failures >= maxFailures) {
                await schedules.release(userId, owner, t, {
                  failures,
                  paused_at: t.toISOString(),
                  next_due_at: null,
                  last_error: tokenRejected
                    ? TOKEN_REJECTED
                    : `Background sync paused after ${failures} failed attempts: ${message} Sync manually or save your OANDA settings again to resume.`,
                });
                outcome = 'paused';
              } else {
                const delay = Math.min(backoffMs * 2 ** (failures - 1), MAX_BACKOFF_MS);
                await schedules.release(userId, owner, t, {
                  failures,
                  next_due_at: new Date(t.getTime() + delay).toISOString(),
                  last_error: tokenRejected ? TOKEN_REJECTED : message,
                });
                outcome = 'failed';
              }
            }
          });
          return outcome;
        });
      });
    },

    /**
     * A sync the user asked for (the Sync button): holds the lease (409 while a background sync of the user runs),
     * records progress, and on success resets the failures, resumes a paused schedule and moves the next sync one
     * interval on; on failure keeps the error in the status and throws it on.
     */
    async runManual<T>(userId: string, work: (onPage: (trades: number) => void) => Promise<T>): Promise<T> {
      // Manual syncs of one user in this instance share one lease (an account sync may run beside a trade sync;
      // the trading service refuses a second one of the same kind itself).
      const held = manual.get(userId);
      if (!held) {
        if (!(await schedules.claim(userId, owner, now(), leaseMs, false)))
          throw conflict('A sync is already running for your account. Wait for it to finish.', 'SYNC_IN_PROGRESS');
        manual.set(userId, { count: 1, stop: heartbeat(userId) });
      } else held.count += 1;
      const progress = progressWriter(userId);
      const done = async (outcome: Parameters<SyncScheduleRepository['release']>[3]) => {
        await progress.settled();
        const entry = manual.get(userId);
        const left = (entry?.count ?? 1) - 1;
        if (entry && left > 0) entry.count = left;
        else {
          entry?.stop();
          manual.delete(userId);
        }
        await schedules.release(userId, owner, now(), outcome, left > 0);
      };
      try {
        const result = await work(progress.onPage);
        const t = now();
        const minutes = await intervalOf(userId);
        await done({
          last_synced_at: t.toISOString(),
          next_due_at: minutes > 0 ? new Date(t.getTime() + minutes * 60_000).toISOString() : null,
          last_error: null,
          failures: 0,
          paused_at: null,
        });
        return result;
      } catch (error) {
        await done({ last_error: failureMessage(error) });
        throw error;
      }
    },
  };
}
