import type { Kysely } from 'kysely';

/*
 * The AI-written overview insights, one row per user and scope (mode, time zone, provider). The row holds the
 * insights of one data version (a digest of the synced data): a new sync moves the version and the row is
 * claimed again for it, so the table never grows past a user's scopes. Stored in the database rather than in
 * memory so that they survive restarts and every server instance shares them; the claim (an upsert with a
 * condition) also keeps two instances from asking the provider twice. Text and ISO-8601 UTC times only, so the
 * same statements run on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analytics_insights')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('data_as_of', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('model', 'text')
    .addColumn('insights', 'text')
    .addColumn('note', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('written_at', 'text')
    .addColumn('retry_after', 'text')
    .addPrimaryKeyConstraint('analytics_insights_pkey', ['user_id', 'scope'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analytics_insights').execute();
}
