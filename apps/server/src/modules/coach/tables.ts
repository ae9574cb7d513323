import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/** The tables the coach owns: no other module reads or writes them (db/slice.ts). */
export type CoachTables = Pick<
  Database,
  'coach_settings' | 'coach_trade_reviews' | 'coach_weekly_reviews' | 'coach_ai_usage'
>;

/** The module's part of an account's deletion (db/user-data.ts). */
export const coachUserData = userRowsDeletion<CoachTables>([
  'coach_trade_reviews',
  'coach_weekly_reviews',
  'coach_ai_usage',
  'coach_settings',
]);
