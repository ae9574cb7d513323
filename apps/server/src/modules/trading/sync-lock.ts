import { conflict } from '../../lib/errors';

/**
 * One sync of a kind per user at a time in this process; a second one is refused with 409 instead of queueing
 * behind a long first sync. Across several server processes two syncs can still overlap: that costs OANDA
 * requests but not data, because every write is an idempotent upsert (docs/decisions/003-broker-numbers.md).
 */
export function createSyncLock() {
  const running = new Set<string>();
  return {
    async run<T>(key: string, busyMessage: string, work: () => Promise<T>): Promise<T> {
      if (running.has(key)) throw conflict(busyMessage, 'SYNC_IN_PROGRESS');
      running.add(key);
      try {
        return await work();
      } finally {
        running.delete(key);
      }
    },
    isRunning: (key: string) => running.has(key),
  };
}
export type SyncLock = ReturnType<typeof createSyncLock>;
