import type { Kysely } from 'kysely';
import type { ChatMessagesTable } from '../../db/schema';
import type { ChatTables } from './tables';

/** Messages of a chat, always scoped by the owner's id as well as the chat's. */
export function createMessageRepository(db: Kysely<ChatTables>) {
  return {
    /** Oldest first; the id breaks ties. */
    list: (userId: string, chatId: string) =>
      db
        .selectFrom('chat_messages')
        .selectAll()
        .where('user_id', '=', userId)
        .where('chat_id', '=', chatId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute(),

    /** The last `limit` messages, oldest first. */
    async recent(userId: string, chatId: string, limit: number): Promise<ChatMessagesTable[]> {
      const rows = await db
        .selectFrom('chat_messages')
        .selectAll()
        .where('user_id', '=', userId)
        .where('chat_id', '=', chatId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse();
    },

    /** Creation time of the chat's newest message, to keep the thread's order strict. */
    async latestCreatedAt(userId: string, chatId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('chat_messages')
        .select('created_at')
        .where('user_id', '=', userId)
        .where('chat_id', '=', chatId)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.created_at;
    },

    insert: (row: ChatMessagesTable) => db.insertInto('chat_messages').values(row).execute(),

    /** The user's message by id. */
    find: (userId: string, messageId: string) =>
      db
        .selectFrom('chat_messages')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', messageId)
        .executeTakeFirst(),

    /**
     * Changes a message only while it has the given status (an answer being written, or one just stopped): true
     * when it did. False means someone else settled it first (a Stop on another instance) or its chat is gone.
     */
    async updateWhile(
      messageId: string,
      status: string,
      change: Partial<
        Pick<ChatMessagesTable, 'content' | 'status' | 'failed' | 'provider' | 'model' | 'attachments'>
      > & {
        updated_at: string;
      },
    ): Promise<boolean> {
      const result = await db
        .updateTable('chat_messages')
        .set(change)
        .where('id', '=', messageId)
        .where('status', '=', status)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
export type MessageRepository = ReturnType<typeof createMessageRepository>;
