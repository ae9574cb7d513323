import { sql, type Kysely } from 'kysely';

/*
 * The fills that reduce or close an OANDA trade, owned by modules/trading (docs/decisions/022-transaction-store.md,
 * Fills that reduce a trade).
 *
 * - trade_reductions: one row per trade an ORDER_FILL reduced (its `tradeReduced`, kind 'reduce') or closed (each of
 *   its `tradesClosed`, kind 'close'), keyed by the fill's id and the trade: one fill may close several trades.
 *   units, price, realized_pl and financing are the TradeReduce's own, decimals as text; time is the fill's.
 *   A trade's partial closes are its 'reduce' rows; the replay lists them and the balance books each at its time.
 * - Accounts synced before: their transaction store skipped every ORDER_FILL. Their checkpoint
 *   (broker_accounts.transactions_through_id) is cleared here, so the next sync reads their transactions from the
 *   first once more, as for a new account. Rows already stored stay as they are (the store inserts a transaction
 *   once), so the re-read only adds the fills.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trade_reductions')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('transaction_num', 'bigint', (c) => c.notNull())
    .addColumn('trade_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('units', 'text', (c) => c.notNull())
    .addColumn('price', 'text')
    .addColumn('realized_pl', 'text')
    .addColumn('financing', 'text')
    .addPrimaryKeyConstraint('trade_reductions_pk', ['user_id', 'account_key', 'transaction_num', 'trade_id'])
    .execute();
  // A trade's fills (the replay), and an account's (the balance).
  await db.schema
    .createIndex('trade_reductions_trade_idx')
    .on('trade_reductions')
    .columns(['user_id', 'account_key', 'trade_id'])
    .execute();
  await sql`update broker_accounts set transactions_through_id = null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trade_reductions').execute();
}
