import type { Kysely } from 'kysely';

/*
 * The money an OANDA account moved over time (docs/decisions/022-transaction-store.md).
 *
 * - account_transactions: the account's transactions that a trade row does not hold: the cash flows (TRANSFER_FUNDS,
 *   DAILY_FINANCING, DIVIDEND_ADJUSTMENT) and the orders that set, replace or cancel a trade's stop-loss, take-profit
 *   and trailing stop. One row per transaction, keyed by OANDA's id as a number (ids are the account's order);
 *   decimals stay text. amount: the balance change of a cash flow (null for orders); balance: OANDA's
 *   accountBalance after it; price/distance: an order's level; order_id: the order an ORDER_CANCEL cancelled;
 *   replaces_order_id: the order a replacement took over from.
 * - broker_accounts.transactions_through_id: the id the store is complete up to, written with each page, so a sync
 *   resumes after it and never reads a transaction twice.
 * - equity_samples: NAV, balance and unrealized P/L of an account at each sync (one row per sync and account).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_transactions')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('transaction_num', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('amount', 'text')
    .addColumn('balance', 'text')
    .addColumn('trade_id', 'text')
    .addColumn('order_id', 'text')
    .addColumn('replaces_order_id', 'text')
    .addColumn('price', 'text')
    .addColumn('distance', 'text')
    .addColumn('reason', 'text')
    .addColumn('comment', 'text')
    .addPrimaryKeyConstraint('account_transactions_pk', ['user_id', 'account_key', 'transaction_num'])
    .execute();
  // A trade's orders (its first stop-loss, the replay of its stop's moves).
  await db.schema
    .createIndex('account_transactions_trade_idx')
    .on('account_transactions')
    .columns(['user_id', 'account_key', 'trade_id', 'transaction_num'])
    .execute();
  await db.schema.alterTable('broker_accounts').addColumn('transactions_through_id', 'text').execute();
  await db.schema
    .createTable('equity_samples')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('nav', 'text')
    .addColumn('balance', 'text')
    .addColumn('unrealized_pl', 'text')
    .addPrimaryKeyConstraint('equity_samples_pk', ['user_id', 'account_key', 'time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('equity_samples').execute();
  await db.schema.alterTable('broker_accounts').dropColumn('transactions_through_id').execute();
  await db.schema.dropTable('account_transactions').execute();
}
