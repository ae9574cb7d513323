import type { Kysely } from 'kysely';

/*
 * AI cost (SECURITY.md, Resource exhaustion): the provider requests of each user per UTC day, counted in the database
 * so that every instance shares one budget (`AI_DAILY_REQUESTS`). One row per user and day, raised by one upsert per
 * provider call; the user's rows go with the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ai_usage')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The UTC day, YYYY-MM-DD. */
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ai_usage_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ai_usage').execute();
}
