import type { Kysely, Transaction } from 'kysely';
import { compiledRead } from './compiled-read';
import type { Database } from './schema';

/**
 * Which counter of `data_versions` moves: the stored trades and accounts ('data'), the journal's tags on them
 * ('journal'), or what only the trade list shows ('list': a note or rating, a trade's excursions). The Overview's
 * snapshot and insights are keyed by the first two; the trade list's cached pages by all three.
 */
/**
 * The shared slice of db/: `data_versions` is moved inside the transactions of trading and the journal (their slices
 * add it, modules/<name>/tables.ts) and read by analytics; no module owns it.
 */
export type DataVersionsTables = Pick<Database, 'data_versions'>;

export type DataCounter = 'data' | 'journal' | 'list';

const COLUMN = { data: 'version', journal: 'journal_version', list: 'list_version' } as const;

/**
 * The statement that moves one of the user's data-version counters. Every place that writes trades, accounts, tags,
 * notes or excursions runs it, only when a write changed something: a sync that brings nothing new must leave the
 * counters alone. One statement, so concurrent bumps never lose one; run it in the writer's transaction to move it
 * with the write (the SQLite trade writer runs it compiled, on its own connection).
 */
export function dataVersionBump(
  db: Kysely<DataVersionsTables> | Transaction<DataVersionsTables>,
  userId: string,
  at: string,
  counter: DataCounter = 'data',
) {
  const column = COLUMN[counter];
  return db
    .insertInto('data_versions')
    .values({
      user_id: userId,
      version: counter === 'data' ? 1 : 0,
      journal_version: counter === 'journal' ? 1 : 0,
      list_version: counter === 'list' ? 1 : 0,
      changed_at: at,
    })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({
        [column]: eb(`data_versions.${column}`, '+', 1),
        // `changed_at` is when the Overview's data last changed (its "as of"): a note leaves it.
        ...(counter === 'list' ? {} : { changed_at: at }),
      })),
    );
}

/** Moves one of the user's data-version counters now (dataVersionBump, executed). */
export async function bumpDataVersion(
  db: Kysely<DataVersionsTables> | Transaction<DataVersionsTables>,
  userId: string,
  at: string,
  counter: DataCounter = 'data',
): Promise<void> {
  await dataVersionBump(db, userId, at, counter).execute();
}

/**
 * Reads the user's three counters as one key (`<version>.<journal_version>.<list_version>`; '0.0.0' before any
 * write): what the trade list's cached pages are keyed by. One indexed read of one row, built once and on SQLite run
 * at once outside transactions (compiled-read.ts): it is asked on every request of the list.
 */
export function listVersionReader(db: Kysely<DataVersionsTables>): (userId: string) => Promise<string> {
  const read = compiledRead(
    db,
    db.selectFrom('data_versions').select(['version', 'journal_version', 'list_version']).where('user_id', '=', ''),
  );
  return async (userId) => {
    const row = (await read(userId))[0];
    return row ? `${row.version}.${row.journal_version}.${row.list_version}` : '0.0.0';
  };
}
