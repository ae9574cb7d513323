import { sql, type Kysely } from 'kysely';

/*
 * The trade list sorted by realized P/L. P/L is TEXT (exact broker decimals); an index on the numeric
 * value, the very expression the list orders by (modules/trading/trade-list.repository.ts), lets both engines read
 * a page in P/L order without sorting every trade of the user. No copy column: nothing for the sync to fill.
 * A tag filter reads the user's tagged trades by tag first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index trades_user_realized_pl_idx on trades (user_id, (CAST(realized_pl AS NUMERIC)))`.execute(db);
  // Filtering by tag starts from the tagged trades of the user: the index holds all the keys it needs.
  await db.schema
    .createIndex('trade_tags_user_tag_idx')
    .on('trade_tags')
    .columns(['user_id', 'tag_id', 'account_key', 'trade_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trade_tags_user_tag_idx').execute();
  await db.schema.dropIndex('trades_user_realized_pl_idx').execute();
}
