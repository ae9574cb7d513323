import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/** The table support owns: no other module reads or writes it (db/slice.ts). */
export type SupportTables = Pick<Database, 'feedback'>;

/** The module's part of an account's deletion (db/user-data.ts): the user's rows of its tables. */
export const supportUserData = userRowsDeletion<SupportTables>(['feedback']);
