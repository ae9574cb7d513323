import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Images attached to trades, journal days, playbooks and missed trades (docs/review.md, Attachments), owned by
 * modules/attachments.
 *
 * - attachments: one row per image, with the item it belongs to (`target` and its keys: account_key + trade_id,
 *   date, or item_id), its size after re-encoding, caption, and where its bytes are (`storage`: db or s3).
 * - attachment_blobs: the image and thumbnail bytes when stored in the database (BLOB on SQLite, bytea on
 *   PostgreSQL), deleted with their row.
 * - attachment_deletions: the outbox of S3 objects to delete. Rows are written in the transaction that deletes the
 *   attachments, and a retried worker deletes the objects, so no deletion leaves files behind in the bucket.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`;
  await db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('account_key', 'text')
    .addColumn('trade_id', 'text')
    .addColumn('date', 'text')
    .addColumn('item_id', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('thumbnail_bytes', 'integer', (c) => c.notNull())
    .addColumn('caption', 'text', (c) => c.notNull())
    .addColumn('storage', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('attachments_trade_idx')
    .on('attachments')
    .columns(['user_id', 'target', 'account_key', 'trade_id'])
    .execute();
  await db.schema
    .createIndex('attachments_item_idx')
    .on('attachments')
    .columns(['user_id', 'target', 'item_id', 'date'])
    .execute();
  await db.schema
    .createTable('attachment_blobs')
    .addColumn('attachment_id', 'text', (c) => c.primaryKey().references('attachments.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('data', bytes, (c) => c.notNull())
    .addColumn('thumbnail', bytes, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('attachment_deletions')
    .addColumn('storage_key', 'text', (c) => c.primaryKey())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('attachment_deletions').execute();
  await db.schema.dropTable('attachment_blobs').execute();
  await db.schema.dropTable('attachments').execute();
}
