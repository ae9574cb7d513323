import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** Which counter of `data_versions` moves: the stored trades and accounts, or the journal's tags on them. */
export type DataCounter = 'data' | 'journal';

/**
 * Moves one of the user's data-version counters (the Overview's snapshot and AI insights are keyed by them). Called
 * by the places that write trades, accounts or tags, only when a write changed something: a sync that brings
 * nothing new must leave the counters alone. One statement, so concurrent bumps never lose one.
 */
export async function bumpDataVersion(
  db: Kysely<Database>,
  userId: string,
  at: string,
  counter: DataCounter = 'data',
): Promise<void> {
  const column = counter === 'data' ? 'version' : 'journal_version';
  await db
    .insertInto('data_versions')
    .values({
      user_id: userId,
      version: counter === 'data' ? 1 : 0,
      journal_version: counter === 'journal' ? 1 : 0,
      changed_at: at,
    })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({
        [column]: eb(`data_versions.${column}`, '+', 1),
        changed_at: at,
      })),
    )
    .execute();
}
