import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/** The table settings owns: no other module reads or writes it (db/slice.ts). */
export type SettingsTables = Pick<Database, 'user_info'>;

/** The module's part of an account's deletion (db/user-data.ts): the user's rows of its tables. */
export const settingsUserData = userRowsDeletion<SettingsTables>(['user_info']);
