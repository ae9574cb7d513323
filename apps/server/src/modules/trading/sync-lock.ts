import { createOneAtATime } from '../../lib/one-at-a-time';

/**
 * One sync of a kind per user at a time in this process; a second one is refused with 409 SYNC_IN_PROGRESS instead
 * of queueing behind a long first sync. Across several server processes two syncs can still overlap: that costs
 * OANDA requests but not data, because every write is an idempotent upsert (docs/decisions/003-broker-numbers.md).
 */
export const createSyncLock = () => createOneAtATime('SYNC_IN_PROGRESS');
