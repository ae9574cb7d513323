import type { Database } from '../../db/schema';

/** The table sync-jobs owns: no other module reads or writes it (db/slice.ts). */
export type SyncJobsTables = Pick<Database, 'sync_schedules'>;

/** Temporary until settings answers it: which users saved an OANDA token, read from settings' `user_info`. */
export type SyncDueReads = SyncJobsTables & Pick<Database, 'user_info'>;
