import type { Kysely } from 'kysely';

/**
 * Chats and their messages. Portable on SQLite and PostgreSQL: text ids and ISO-8601 UTC times,
 * `failed` as an integer 0/1, attachments as JSON text. Messages go with their chat (and chats with
 * their user) through ON DELETE CASCADE; the service also deletes them explicitly, so a SQLite
 * connection opened without `foreign_keys = ON` cannot leave orphans behind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chats')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chats_user_topic_created')
    .on('chats')
    .columns(['user_id', 'topic', 'created_at'])
    .execute();

  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('chat_id', 'text', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('provider', 'text')
    .addColumn('model', 'text')
    .addColumn('attachments', 'text', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chat_messages_chat_created')
    .on('chat_messages')
    .columns(['chat_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chat_messages').execute();
  await db.schema.dropTable('chats').execute();
}
