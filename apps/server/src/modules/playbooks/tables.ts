import { userRowsDeletion } from '../../db/user-data';
import type { DataVersionsTables } from '../../db/data-versions';
import type { Database } from '../../db/schema';

/** The tables the playbooks own: no other module writes them (db/slice.ts); the trade views read `trade_reviews`. */
export type PlaybooksTables = Pick<
  Database,
  'playbooks' | 'playbook_groups' | 'playbook_rules' | 'trade_reviews' | 'missed_trades'
>;

/**
 * The playbooks' slice with the shared counters they move inside their own transactions (db/data-versions.ts): a
 * trade's review shows on the trade list, whose cached pages are keyed by the list version.
 */
export type PlaybooksDb = PlaybooksTables & DataVersionsTables;

/** The module's part of an account's deletion (db/user-data.ts): the rows naming a playbook go first. */
export const playbooksUserData = userRowsDeletion<PlaybooksTables>([
  'trade_reviews',
  'missed_trades',
  'playbook_rules',
  'playbook_groups',
  'playbooks',
]);
