import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** A user row written straight into the database (username, key and e-mail from the id), for repository tests. */
export async function insertUser(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id,
      username: id,
      username_key: id,
      email: `${id}@example.com`,
      password_hash: 'x',
      created_at: at,
      updated_at: at,
    })
    .execute();
}
