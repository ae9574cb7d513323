import type { Kysely } from 'kysely';
import type { ChatsTable } from '../../db/schema';
import type { ChatTables } from './tables';

/** Chats, always scoped by the owner's id: another user's chat id finds nothing. */
export function createChatRepository(db: Kysely<ChatTables>) {
  return {
    /** Newest first; the id breaks ties between chats created in the same millisecond. */
    list: (userId: string, topic: string) =>
      db
        .selectFrom('chats')
        .selectAll()
        .where('user_id', '=', userId)
        .where('topic', '=', topic)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),

    find: (userId: string, chatId: string) =>
      db.selectFrom('chats').selectAll().where('user_id', '=', userId).where('id', '=', chatId).executeTakeFirst(),

    /** Creation time of the user's newest chat, to keep creation times strictly increasing. */
    async latestCreatedAt(userId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('chats')
        .select('created_at')
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.created_at;
    },

    insert: (row: ChatsTable) => db.insertInto('chats').values(row).execute(),

    /** True when the user's chat existed and was renamed. */
    async rename(userId: string, chatId: string, title: string, updatedAt: string): Promise<boolean> {
      const result = await db
        .updateTable('chats')
        .set({ title, updated_at: updatedAt })
        .where('user_id', '=', userId)
        .where('id', '=', chatId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    touch: (userId: string, chatId: string, updatedAt: string) =>
      db
        .updateTable('chats')
        .set({ updated_at: updatedAt })
        .where('user_id', '=', userId)
        .where('id', '=', chatId)
        .execute(),

    /** Deletes the chat and its messages in one transaction; true when the user's chat existed. */
    remove: (userId: string, chatId: string): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        const owned = await trx
          .selectFrom('chats')
          .select('id')
          .where('user_id', '=', userId)
          .where('id', '=', chatId)
          .executeTakeFirst();
        if (!owned) return false;
        await trx.deleteFrom('chat_messages').where('chat_id', '=', chatId).where('user_id', '=', userId).execute();
        await trx.deleteFrom('chats').where('id', '=', chatId).where('user_id', '=', userId).execute();
        return true;
      }),
  };
}
export type ChatRepository = ReturnType<typeof createChatRepository>;
