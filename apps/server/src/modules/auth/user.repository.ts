import type { Kysely } from 'kysely';
import type { Database, UsersTable } from '../../db/schema';

export const usernameKey = (username: string) => username.trim().toLowerCase();

export function createUserRepository(db: Kysely<Database>) {
  return {
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
    insert: (user: UsersTable) => db.insertInto('users').values(user).execute(),
    update: (id: string, patch: Partial<Omit<UsersTable, 'id'>>) =>
      db.updateTable('users').set(patch).where('id', '=', id).execute(),
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
