import type { Database } from '../../db/schema';

/** The table sync-jobs owns: no other module reads or writes it (db/slice.ts). */
export type SyncJobsTables = Pick<Database, 'sync_schedules'>;
