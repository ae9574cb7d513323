import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/** The tables auth owns: no other module reads or writes them (db/slice.ts). */
export type AuthTables = Pick<Database, 'users' | 'revoked_tokens' | 'email_tokens'>;

/** Auth's part of an account's deletion (db/user-data.ts): its session and email rows, then the user's own row (app.ts puts it last: the other rows name it). */
export const authUserData = userRowsDeletion<AuthTables>(['revoked_tokens', 'email_tokens'], (trx, userId) =>
  trx.deleteFrom('users').where('id', '=', userId).execute(),
);
