import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/** The tables chat owns: no other module reads or writes them (db/slice.ts). */
export type ChatTables = Pick<Database, 'chats' | 'chat_messages'>;

/** The module's part of an account's deletion (db/user-data.ts): the user's rows of its tables. */
export const chatUserData = userRowsDeletion<ChatTables>(['chats', 'chat_messages']);
