import type { Kysely } from 'kysely';

/*
 * The Overview from a snapshot (docs/decisions/013-overview-snapshot.md).
 *
 * - data_versions: one row per user, two counters. `version` moves when stored trades or accounts change (a sync
 *   that wrote, rewrote or removed rows, an account whose content changed, an import that added or updated trades);
 *   `journal_version` when what the journal adds to the Overview changes (tags, which trade carries which). A sync
 *   that brings nothing new moves neither, so snapshots and AI insights keyed by them stay valid.
 * - overview_snapshots: the unfiltered overview of one scope (platform, mode, time zone), as of one version
 *   (`<version>.<journal_version>`): `body` is the overview's JSON text as the API sends it (a view copies it into the
 *   response without parsing it: with a chart point per closed trade it grows with the book), `meta` what the
 *   insights need (the built-in cards, the facts a provider writes from, the counts). One row per user and scope: a
 *   new version overwrites it.
 * - user_info.time_zone: the trader's saved IANA zone (null until saved; the overview then uses the request's).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_versions')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('journal_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('overview_snapshots')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('overview_snapshots_pkey', ['user_id', 'scope'])
    .execute();
  await db.schema.alterTable('user_info').addColumn('time_zone', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_info').dropColumn('time_zone').execute();
  await db.schema.dropTable('overview_snapshots').execute();
  await db.schema.dropTable('data_versions').execute();
}
