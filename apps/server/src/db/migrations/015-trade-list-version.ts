import type { Kysely } from 'kysely';

/*
 * The fast trade list: a third counter of `data_versions`. `list_version` moves when something the trade
 * list shows changes that neither other counter covers: a trade's note or rating, its excursions (MAE/MFE, filled in
 * by the background job). The list's cached pages are keyed by all three counters (`version`, `journal_version`,
 * `list_version`); the Overview's snapshot and insights read only the first two, so a note does not make them
 * be written again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('data_versions')
    .addColumn('list_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('data_versions').dropColumn('list_version').execute();
}
