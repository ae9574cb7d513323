import type { Kysely } from 'kysely';

/*
 * Background sync: one row per user who changed the schedule or whose OANDA connection was synced.
 * A user with a saved token and no row syncs every 15 minutes (the default).
 *
 * - interval_minutes: 0 = off, 5, 15 or 60.
 * - next_due_at: when the next background sync is due (null: as soon as the scheduler sees the user).
 * - failures, paused_at, last_error: a failing token backs off exponentially and is paused after a few failures;
 *   saving the OANDA settings again (user_info.updated_at after paused_at) or a manual sync that succeeds resumes it.
 * - lease_until, lease_owner: the per-user lock shared by every instance (a sync claims it with one conditional
 *   update; a killed instance's lease runs out); progress_pages and progress_trades while it runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sync_schedules')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('interval_minutes', 'integer', (c) => c.notNull().defaultTo(15))
    .addColumn('next_due_at', 'text')
    .addColumn('last_synced_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paused_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('started_at', 'text')
    .addColumn('progress_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress_trades', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sync_schedules_due_idx').on('sync_schedules').columns(['next_due_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sync_schedules').execute();
}
