import { userRowsDeletion } from '../../db/user-data';
import type { DataVersionsTables } from '../../db/data-versions';
import type { Database } from '../../db/schema';

/** The tables the journal owns: no other module writes them (db/slice.ts). */
export type JournalTables = Pick<
  Database,
  'journal_tags' | 'trade_notes' | 'trade_tags' | 'journal_days' | 'journal_starter_tags'
>;

/** The journal's slice with the shared counters it moves inside its own transactions (db/data-versions.ts). */
export type JournalDb = JournalTables & DataVersionsTables;

/** The module's part of an account's deletion (db/user-data.ts): the user's rows of its tables. */
export const journalUserData = userRowsDeletion<JournalTables>([
  'journal_tags',
  'trade_notes',
  'trade_tags',
  'journal_days',
  'journal_starter_tags',
]);
