import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * The trade list's broad filters: "closed losers, by close time" on 100,000 trades kept half of them,
 * counted them through the P/L index of 010 (a table lookup each for the state) and sorted them all for a page of 10
 * (87 ms on SQLite, 61 ms on PostgreSQL in bench/list.bench.ts).
 *
 * - By close time within a state: the page is read in order and stops after it. The order is the list's whole order
 *   (close time, then open time, trade id, account); the list sorts open trades (no close time) last, which
 *   PostgreSQL's index has to say (`desc nulls last`, read forwards), SQLite's by default (read backwards).
 * - Outcome within a state, for the count: P/L by value after the state, and the P/L text itself so that
 *   PostgreSQL can count from the index alone (an index-only scan needs the column under the expression).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const closeTime = postgres
    ? sql`close_time desc nulls last, open_time desc, trade_num desc, account_key desc`
    : sql`close_time, open_time, trade_num, account_key`;
  await sql`create index trades_user_state_close_time_idx on trades (user_id, state, ${closeTime})`.execute(db);
  await sql`create index trades_user_state_realized_pl_idx
    on trades (user_id, state, (CAST(realized_pl AS NUMERIC)), realized_pl)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_user_state_realized_pl_idx').execute();
  await db.schema.dropIndex('trades_user_state_close_time_idx').execute();
}
