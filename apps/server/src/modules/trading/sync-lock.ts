import { createOneAtATime } from '../../lib/one-at-a-time';

/**
 * One sync of a kind per user at a time in this process; a second one is refused with 409 SYNC_IN_PROGRESS instead
 * of queueing behind a long first sync. It lives and dies with the process. Across processes the Sync buttons and
 * the background sync hold the user's lease (modules/sync-jobs, `sync_schedules`: short, renewed by a heartbeat, so
 * a dead instance's runs out within a minute). Should two syncs still overlap (an instance stalled past its lease),
 * that costs OANDA requests but not data: every write is an idempotent upsert (docs/decisions/003-broker-numbers.md).
 */
export const createSyncLock = () => createOneAtATime('SYNC_IN_PROGRESS');
