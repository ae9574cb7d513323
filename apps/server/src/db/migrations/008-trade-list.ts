import { sql, type Kysely } from 'kysely';

/*
 * The trade list sorted by realized P/L (issue 9). P/L is TEXT (exact broker decimals); an index on the numeric
 * value, the very expression the list orders by (modules/trading/trade-list.repository.ts), lets both engines read
 * a page in P/L order without sorting every trade of the user. No copy column: nothing for the sync to fill.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index trades_user_realized_pl_idx on trades (user_id, (CAST(realized_pl AS NUMERIC)))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_user_realized_pl_idx').execute();
}
