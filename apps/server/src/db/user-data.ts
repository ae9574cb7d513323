import { sql, type Kysely, type Transaction } from 'kysely';
import type { DataVersionsTables } from './data-versions';
import type { Database } from './schema';

/**
 * One module's part of deleting an account: the user's rows in the tables the module owns, removed inside the one
 * transaction of the deletion (so all of the account goes or none of it). Each module builds its own, typed to its
 * slice (db/slice.ts); app.ts hands the list to auth, which runs it without knowing the modules.
 */
export interface UserDataDeletion<Tables> {
  /** The module's tables holding rows of users: the deletion's test checks that the list covers the whole schema. */
  readonly tables: readonly (keyof Tables & string)[];
  deleteUserData(trx: Transaction<Tables>, userId: string): Promise<void>;
}

/**
 * The deletion hook of a module whose tables name their user in `user_id`: deletes the user's rows of each, then runs
 * `also` (in the same transaction) for what lies elsewhere: the user's own row, the queue's jobs.
 */
export function userRowsDeletion<Tables>(
  tables: readonly (keyof Tables & string)[],
  also?: (trx: Transaction<Tables>, userId: string) => Promise<unknown>,
): UserDataDeletion<Tables> {
  return {
    tables,
    async deleteUserData(trx, userId) {
      for (const table of tables) await sql`delete from ${sql.table(table)} where user_id = ${userId}`.execute(trx);
      await also?.(trx, userId);
    },
  };
}

/** db/'s own shared slice: the user's data-version counters. */
export const dataVersionsUserData = userRowsDeletion<DataVersionsTables>(['data_versions']);

/**
 * Runs every module's deletion hook for the user in one transaction, in the order given (the module owning `users`
 * last: the other rows name it). What app.ts hands to auth's account deletion.
 */
export function accountDataDeletion(
  kysely: Kysely<Database>,
  hooks: readonly UserDataDeletion<Database>[],
): (userId: string) => Promise<void> {
  return (userId) =>
    kysely.transaction().execute(async (trx) => {
      for (const hook of hooks) await hook.deleteUserData(trx, userId);
    });
}
