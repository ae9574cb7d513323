import type { Kysely } from 'kysely';

/*
 * The starter tags (a few setups, mistakes and emotions) are given to a user once, the first time their tags are
 * read or written. This table records that they were given, so that a trader who deletes every starter tag does
 * not get them back. It goes with the user (cascade on users).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('journal_starter_tags')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('given_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('journal_starter_tags').execute();
}
