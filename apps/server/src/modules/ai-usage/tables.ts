import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/** The table ai-usage owns: no other module reads or writes it (db/slice.ts). */
export type AiUsageTables = Pick<Database, 'ai_usage'>;

/** The module's part of an account's deletion (db/user-data.ts): the user's rows of its tables. */
export const aiUsageUserData = userRowsDeletion<AiUsageTables>(['ai_usage']);
