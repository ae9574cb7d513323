import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * PostgreSQL only: the trade list's tag and note filters within a date range (bench/list.bench.ts, 100,000 trades;
 * bench/README.md, "Results: `list`, with the playbook filters").
 *
 * - The trades in a range of open times, by key: `trades_user_open_time_idx` gets the trade's key after its order
 *   (`user_id, open_time, trade_num, account_key, trade_id`), so that the count of a tag within dates is a hash join
 *   of the tag's trades against an index-only range scan instead of a parallel sequential scan of `trades` (65 ms to
 *   23 in EXPLAIN ANALYZE), and a page newest first ends on the list's whole order. The index is replaced, not
 *   added: one index more for every trade a sync writes is what this avoids (docs/decisions/018-trade-write-path.md).
 * - The note search: PostgreSQL has no statistics on `lower(note)`, so it guessed that `lower(note) like '%…%'`
 *   keeps 160 of 20,000 notes when it kept 6,667, and planned the page from the notes (each trade read whole, 41 ms)
 *   and the count as one lookup per note (34 ms). With statistics on the expression (PostgreSQL 14 and later) the
 *   page is read newest first from the index above and stops after 10 (0.4 ms), the count a hash join (22–26 ms).
 *
 * SQLite plans these pages from the journal's tables and migration 035's index (the window count of the trade list
 * repository); it keeps its indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema.dropIndex('trades_user_open_time_idx').execute();
  await db.schema
    .createIndex('trades_user_open_time_idx')
    .on('trades')
    .columns(['user_id', 'open_time', 'trade_num', 'account_key', 'trade_id'])
    .execute();
  if (await expressionStatistics(db))
    await sql`create statistics trade_notes_note_lower_stats on (lower(note)) from trade_notes`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop statistics if exists trade_notes_note_lower_stats`.execute(db);
  await db.schema.dropIndex('trades_user_open_time_idx').execute();
  await db.schema
    .createIndex('trades_user_open_time_idx')
    .on('trades')
    .columns(['user_id', 'open_time', 'trade_num'])
    .execute();
}

/** Statistics on an expression came with PostgreSQL 14. */
async function expressionStatistics(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{ v: string }>`select current_setting('server_version_num') as v`.execute(db);
  return Number(rows[0]?.v ?? 0) >= 140000;
}
