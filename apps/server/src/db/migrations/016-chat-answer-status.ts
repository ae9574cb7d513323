import { sql, type Kysely } from 'kysely';

/*
 * An answer outlives the page that asked for it (docs/decisions/015-chat-answers-outlive-the-page.md). The assistant's
 * message is stored as soon as the answer starts and its text is saved while it is written.
 *
 * - status: 'streaming', 'complete', 'cancelled' (the trader's Stop) or 'failed'; every existing message is complete
 *   (failed ones keep failed = 1 and read as 'failed').
 * - updated_at: when the text was last saved; null for messages written in one go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('chat_messages')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('complete'))
    .execute();
  await db.schema.alterTable('chat_messages').addColumn('updated_at', 'text').execute();
  await sql`update chat_messages set status = 'failed' where failed = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('chat_messages').dropColumn('updated_at').execute();
  await db.schema.alterTable('chat_messages').dropColumn('status').execute();
}
