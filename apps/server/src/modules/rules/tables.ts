import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/** The table the rules module owns: no other module reads or writes it (db/slice.ts). */
export type RulesTables = Pick<Database, 'rule_sets'>;

/** The module's part of an account's deletion (db/user-data.ts): the user's rule sets. */
export const rulesUserData = userRowsDeletion<RulesTables>(['rule_sets']);
