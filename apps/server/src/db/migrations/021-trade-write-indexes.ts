import type { Kysely } from 'kysely';

/*
 * The sync goal: fewer indexes on `trades` for every row a sync writes (docs/decisions/018-…).
 * Each secondary index costs every inserted trade a B-tree insert keyed by the 36-character user id; a full sync of
 * 10,000 trades spent most of its write time in the twelve B-trees of the table. These three are never chosen by
 * either engine for any query the app runs (EXPLAIN QUERY PLAN / EXPLAIN over every query on `trades`):
 *
 * - (user_id, mode, open_time), 002: the journal list, the Overview and the assistant read a user's trades through
 *   (user_id, open_time, trade_num) or (user_id, platform, open_time) and filter the mode on the row.
 * - (user_id, mode, close_time), 005: a period's closed trades are read through (user_id, state, close_time, …)
 *   (011), which every such query can use (state = 'CLOSED' is always part of it).
 * - (user_id, mode, updated_at), 005: only the assistant's "from your last sync at …" (MAX(updated_at) of a mode,
 *   trade-query.repository.ts latestWrite) used it; that question now reads the mode's rows (one per trade,
 *   beside a chat answer's seconds).
 *
 * `down` builds them again, as 002 and 005 made them.
 */
const DROPPED = [
  ['trades_user_mode_time_idx', ['user_id', 'mode', 'open_time']],
  ['trades_user_mode_close_time_idx', ['user_id', 'mode', 'close_time']],
  ['trades_user_mode_updated_idx', ['user_id', 'mode', 'updated_at']],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name] of DROPPED) await db.schema.dropIndex(name).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of DROPPED)
    await db.schema
      .createIndex(name)
      .on('trades')
      .columns([...columns])
      .execute();
}
