import type { Kysely } from 'kysely';

/*
 * The coach (docs/coach.md), owned by modules/coach.
 *
 * - coach_settings: one row per user who changed a setting (no row: the defaults); `thresholds` is JSON of the
 *   detectors' thresholds given (the others keep their defaults).
 * - coach_trade_reviews: a trade's review by its keys (as the journal names trades): `facts` and `review` as JSON,
 *   `source` ('builtin' or the model's name), and `data_version`, the trade's, its journal entry's and its candles'
 *   version when it was written; a different version now makes it stale.
 * - coach_weekly_reviews: one row per user and ISO week (`2026-W47`), whichever instance made it first (the primary
 *   key); `data` is the review as JSON; `read_at` marks its notice read, `emailed_at` its email sent.
 * - coach_ai_usage: the provider requests the coach's background work made per user and UTC day, against its share
 *   of the daily budget (COACH_DAILY_REQUESTS).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('coach_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('auto_review', 'integer', (c) => c.notNull())
    .addColumn('ai_written', 'integer', (c) => c.notNull())
    .addColumn('weekly_day', 'integer', (c) => c.notNull())
    .addColumn('weekly_hour', 'integer', (c) => c.notNull())
    .addColumn('email_weekly', 'integer', (c) => c.notNull())
    .addColumn('thresholds', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('coach_trade_reviews')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('trade_id', 'text', (c) => c.notNull())
    .addColumn('data_version', 'text', (c) => c.notNull())
    .addColumn('facts', 'text', (c) => c.notNull())
    .addColumn('review', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('coach_trade_reviews_pk', ['user_id', 'account_key', 'trade_id'])
    .execute();
  await db.schema
    .createTable('coach_weekly_reviews')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('week', 'text', (c) => c.notNull())
    .addColumn('from_time', 'text', (c) => c.notNull())
    .addColumn('to_time', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addColumn('emailed_at', 'text')
    .addPrimaryKeyConstraint('coach_weekly_reviews_pk', ['user_id', 'week'])
    .execute();
  await db.schema
    .createTable('coach_ai_usage')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('coach_ai_usage_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('coach_ai_usage').execute();
  await db.schema.dropTable('coach_weekly_reviews').execute();
  await db.schema.dropTable('coach_trade_reviews').execute();
  await db.schema.dropTable('coach_settings').execute();
}
