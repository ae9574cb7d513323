import type { AttachmentsRepository } from './attachments.repository';
import type { ObjectStore } from './object-store';

export interface DeletionWorkerOptions {
  repository: Pick<AttachmentsRepository, 'claimDeletions' | 'deletionDone' | 'deletionFailed'>;
  objects: Pick<ObjectStore, 'remove'>;
  now: () => Date;
  log: (err: unknown, context: Record<string, unknown>) => void;
  /** How often the outbox is looked at (default 30 s). */
  intervalMs?: number;
  /** Rows claimed per round (default 25). */
  batch?: number;
}

/** A claimed row's lease: another instance takes it again only if this one has not finished by then. */
const LEASE_MS = 5 * 60_000;
/** Waits after failures: 30 s, doubled each time, at most 6 hours. */
const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);

/**
 * The outbox's worker (docs/decisions/025-attachment-storage.md): deletes the bucket's objects of the rows in
 * attachment_deletions, retried with a growing wait until the bucket says they are gone. Rows are claimed by moving
 * their next attempt (attachments.repository.ts claimDeletions), so several instances can run it; deleting an object
 * twice is harmless.
 */
export function createDeletionWorker({
  repository,
  objects,
  now,
  log,
  intervalMs = 30_000,
  batch = 25,
}: DeletionWorkerOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  async function round(): Promise<number> {
    const at = now();
    const claimed = await repository.claimDeletions(
      at.toISOString(),
      new Date(at.getTime() + LEASE_MS).toISOString(),
      batch,
    );
    let deleted = 0;
    for (const { storageKey, attempts } of claimed) {
      if (stopped) break;
      try {
        await objects.remove(storageKey);
        await repository.deletionDone(storageKey);
        deleted += 1;
      } catch (err) {
        const tries = attempts + 1;
        log(err, { storageKey, attempts: tries, step: 'attachment object deletion' });
        await repository.deletionFailed(
          storageKey,
          tries,
          new Date(now().getTime() + backoffMs(tries)).toISOString(),
          err instanceof Error ? err.message : String(err),
        );
      }
    }
    return deleted;
  }

  /** One round now (tests, and the timer): the number of rows whose objects were deleted. */
  function runOnce(): Promise<number> {
    running ??= round().finally(() => (running = undefined));
    return running;
  }

  return {
    runOnce,
    start() {
      stopped = false;
      timer = setInterval(() => {
        runOnce().catch((err: unknown) => log(err, { step: 'attachment deletion outbox' }));
      }, intervalMs);
      timer.unref();
    },
    /** Stops the timer and waits for the round in progress. */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
export type DeletionWorker = ReturnType<typeof createDeletionWorker>;
