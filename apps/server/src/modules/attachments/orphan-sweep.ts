import type { AttachmentsRepository } from './attachments.repository';
import { attachmentKeyOf, type ObjectStore } from './object-store';

export interface OrphanSweepOptions {
  repository: Pick<AttachmentsRepository, 'referencedKeys'>;
  objects: Pick<ObjectStore, 'list' | 'remove'>;
  now: () => Date;
  log: (err: unknown, context: Record<string, unknown>) => void;
  /** Objects younger than this are left alone, whatever the rows say: an upload in flight (default 1 hour). */
  graceMs?: number;
  /** How often an instance asks for a sweep (default 1 hour). */
  everyMs?: number;
}

/** The one job the sweep puts on the scheduled-job queue: the bucket, not a user. */
const ORPHAN_SWEEP_JOB = 'attachment-objects';

const HOUR_MS = 3_600_000;

/**
 * The bucket's orphans (docs/decisions/025-attachment-storage.md, Update): an upload writes its objects before it
 * commits its row, so a process killed in between leaves objects no row names and no deletion will ever reach. The
 * sweep lists the objects under the attachments' prefix, keeps those younger than the grace period (an upload may
 * still be committing) and those a row names, and deletes the rest, image and thumbnail together. It runs as a
 * scheduled job (sync-jobs' `scheduledJob`): in process on SQLite, on pg-boss on PostgreSQL. Deleting an object
 * already gone succeeds, so two sweeps at once, or a sweep beside the outbox's worker, do no harm.
 */
export function createOrphanSweep({
  repository,
  objects,
  now,
  log,
  graceMs = HOUR_MS,
  everyMs = HOUR_MS,
}: OrphanSweepOptions) {
  let lastDue = -Infinity;

  /** Deletes the orphans older than the grace period; resolves to how many attachments' objects it deleted. */
  async function sweep(): Promise<number> {
    const cutoff = now().getTime() - graceMs;
    let deleted = 0;
    for await (const page of objects.list()) {
      // An image whose thumbnail (or the other way round) is still young is left with it for a later sweep.
      const young = new Set(page.filter((o) => o.modifiedAt.getTime() >= cutoff).map((o) => attachmentKeyOf(o.key)));
      const old = [...new Set(page.map((o) => attachmentKeyOf(o.key)))].filter((key) => !young.has(key));
      if (old.length === 0) continue;
      const referenced = await repository.referencedKeys(old);
      for (const key of old) {
        if (referenced.has(key)) continue;
        try {
          await objects.remove(key);
          deleted += 1;
        } catch (err) {
          // Left for the next sweep.
          log(err, { storageKey: key, step: 'attachment orphan sweep' });
        }
      }
    }
    return deleted;
  }

  return {
    sweep,
    /** The scheduler's question, asked every tick: the sweep's job once per `everyMs` of this instance. */
    async due(): Promise<string[]> {
      const at = now().getTime();
      if (at - lastDue < everyMs) return [];
      lastDue = at;
      return [ORPHAN_SWEEP_JOB];
    },
  };
}
export type OrphanSweep = ReturnType<typeof createOrphanSweep>;
