import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/**
 * The tables the rules module owns: no other module reads or writes them (db/slice.ts). The rule sets, their alerts,
 * and their stored day records and states (docs/rules.md, Alerts and Status).
 */
export type RulesTables = Pick<Database, 'rule_sets' | 'rule_alerts' | 'rule_days' | 'rule_set_states'>;

/** The module's part of an account's deletion (db/user-data.ts): the user's alerts and stored days, then the sets. */
export const rulesUserData = userRowsDeletion<RulesTables>([
  'rule_alerts',
  'rule_days',
  'rule_set_states',
  'rule_sets',
]);
