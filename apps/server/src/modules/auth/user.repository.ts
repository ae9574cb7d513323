import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import { compiledRead } from '../../db/compiled-read';
import type { UsersTable } from '../../db/schema';
import type { AuthTables } from './tables';

export const usernameKey = (username: string) => username.trim().toLowerCase();

export function createUserRepository(db: Kysely<AuthTables>) {
  // `/api/v1/auth/me` asks it on every call: built once (db/compiled-read.ts).
  const profileRow = compiledRead(
    db,
    db.selectFrom('users').select(['username', 'email', 'email_confirmed_at']).where('id', '=', ''),
  );
  return {
    /** What the profile shows of a user (undefined: no such user). */
    profileById: async (id: string) => (await profileRow(id))[0],
    findById: (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    findByUsername: (username: string) =>
      db.selectFrom('users').selectAll().where('username_key', '=', usernameKey(username)).executeTakeFirst(),
    async usernameTaken(username: string, exceptId?: string): Promise<boolean> {
      let q = db.selectFrom('users').select('id').where('username_key', '=', usernameKey(username));
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },
    async emailTaken(email: string, exceptId?: string): Promise<boolean> {
      let q = db.selectFrom('users').select('id').where('email', '=', email.trim().toLowerCase());
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },
    findByEmail: (email: string) =>
      db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst(),
    /** A new password hash, and the session version moved: every older token of the user stops working. */
    async setPassword(id: string, passwordHash: string, at: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, session_version: sql<number>`session_version + 1`, updated_at: at })
        .where('id', '=', id)
        .execute();
    },
    insert: (user: Insertable<UsersTable>) => db.insertInto('users').values(user).execute(),
    update: (id: string, patch: Updateable<Omit<UsersTable, 'id'>>) =>
      db.updateTable('users').set(patch).where('id', '=', id).execute(),
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
