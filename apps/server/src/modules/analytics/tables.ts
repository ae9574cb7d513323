import { userRowsDeletion } from '../../db/user-data';
import type { DataVersionsTables } from '../../db/data-versions';
import type { Database } from '../../db/schema';

/** The tables analytics owns: no other module reads or writes them (db/slice.ts). */
export type AnalyticsTables = Pick<Database, 'analytics_insights' | 'overview_snapshots'>;

/** Analytics' slice with the shared counters its snapshots are keyed by (read only; db/data-versions.ts). */
export type AnalyticsDb = AnalyticsTables & DataVersionsTables;

/** The module's part of an account's deletion (db/user-data.ts): the user's rows of its tables. */
export const analyticsUserData = userRowsDeletion<AnalyticsTables>(['analytics_insights', 'overview_snapshots']);
