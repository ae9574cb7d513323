import type { Kysely } from 'kysely';
import type { SyncJobsTables } from './tables';

/**
 * The background sync's job queue: a tick finds the users that are due and enqueues each once; workers run them.
 * Two implementations: in process (SQLite, one instance) and pg-boss (PostgreSQL, any number of instances).
 */
export interface SyncQueue {
  readonly kind: 'in-process' | 'pg-boss';
  start(): Promise<void>;
  /** Takes no further jobs in this instance (running ones go on): the first step of draining an instance. */
  stopWorkers(): Promise<void>;
  stop(): Promise<void>;
  /** One scheduler tick: enqueues every due user not already queued; resolves to how many were enqueued. */
  tick(): Promise<number>;
  /** Resolves when this instance has no job queued or running (tests). */
  idle(): Promise<void>;
  /** Started and taking jobs (not stopped, not draining): what `/readyz` reports. */
  running(): boolean;
  /**
   * Account deletion: removes every job of the user kept by the queue outside the app's own tables, through `db` (the
   * deletion's transaction); resolves to how many were removed.
   */
  forget(userId: string, db: Kysely<SyncJobsTables>): Promise<number>;
}

export interface QueueDeps {
  /** Users due now (the schedule's own clock). */
  due: () => Promise<string[]>;
  /** Runs one user's background sync; throws only on an unexpected failure (the job is then retried). */
  run: (userId: string) => Promise<unknown>;
  log: (err: unknown, context: Record<string, unknown>) => void;
}

export interface InProcessQueueOptions {
  /** Milliseconds between ticks (default 60 s); 0: no timer, ticks only when `tick` is called. */
  tickMs?: number;
}

/** The SQLite default: a timer tick and an in-memory queue, one job per user at a time. */
export function createInProcessQueue(deps: QueueDeps, options: InProcessQueueOptions = {}): SyncQueue {
  const tickMs = options.tickMs ?? 60_000;
  const queued = new Set<string>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let started = false;

  const enqueue = (userId: string) => {
    queued.add(userId);
    const job = deps
      .run(userId)
      .then(
        () => undefined,
        (err: unknown) => deps.log(err, { userId, step: 'background sync job' }),
      )
      .finally(() => {
        queued.delete(userId);
        running.delete(job);
      });
    running.add(job);
  };

  const queue: SyncQueue = {
    kind: 'in-process',
    async start() {
      stopped = false;
      started = true;
      if (tickMs > 0) {
        timer = setInterval(() => {
          queue.tick().catch((err: unknown) => deps.log(err, { step: 'sync tick' }));
        }, tickMs);
        timer.unref();
      }
    },
    async stopWorkers() {
      stopped = true;
      if (timer) clearInterval(timer);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
    async tick() {
      if (stopped) return 0;
      let n = 0;
      for (const userId of await deps.due()) {
        if (queued.has(userId)) continue;
        enqueue(userId);
        n += 1;
      }
      return n;
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    running: () => started && !stopped,
    // Nothing waits here and nothing is kept: a job starts as soon as it is enqueued and is gone when it ends.
    forget: async () => 0,
  };
  return queue;
}
