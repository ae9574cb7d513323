import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/** The tables the rules module owns: no other module reads or writes them (db/slice.ts). */
export type RulesTables = Pick<Database, 'rule_sets' | 'rule_alerts'>;

/** The module's part of an account's deletion (db/user-data.ts): the user's alerts, then the rule sets they name. */
export const rulesUserData = userRowsDeletion<RulesTables>(['rule_alerts', 'rule_sets']);
