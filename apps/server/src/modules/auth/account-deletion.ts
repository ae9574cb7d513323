import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * The tables holding a user's rows: every table of the application's schema with a `user_id` column, read from the
 * database itself, so a table added by a later migration is covered without a change here. (PostgreSQL: the public
 * schema only; pg-boss keeps its queue in a schema of its own: `deleteUserRows`'s `also` removes the user's jobs there.)
 */
export async function userOwnedTables(db: Kysely<Database>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables
    .filter((t) => !t.isView && (t.schema === undefined || t.schema === 'public'))
    .filter((t) => t.columns.some((c) => c.name === 'user_id'))
    .map((t) => t.name)
    .sort();
}

/**
 * Removes every row of the user, in one transaction: each user-owned table's, then the user's own, and what `also`
 * deletes outside those tables (the sync jobs in pg-boss's schema), so all of it goes or none.
 */
export async function deleteUserRows(
  db: Kysely<Database>,
  userId: string,
  also?: (trx: Transaction<Database>) => Promise<unknown>,
): Promise<void> {
  const tables = await userOwnedTables(db);
  await db.transaction().execute(async (trx) => {
    for (const table of tables) await sql`delete from ${sql.table(table)} where user_id = ${userId}`.execute(trx);
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    await also?.(trx);
  });
}
