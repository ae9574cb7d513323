import type { Kysely } from 'kysely';

/*
 * Broker accounts and trades synced from OANDA. Broker numbers are text (decimal strings, every digit kept);
 * times are RFC 3339 UTC text with nine fractional digits, so text order is time order; trade ids also get a
 * bigint copy because "999" sorts after "1000" as text. See docs/decisions/003-broker-numbers.md.
 * Only text, integer and bigint: the same statements run on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('broker_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('oanda_account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('alias', 'text')
    .addColumn('currency', 'text')
    .addColumn('balance', 'text')
    .addColumn('nav', 'text')
    .addColumn('unrealized_pl', 'text')
    .addColumn('pl', 'text')
    .addColumn('financing', 'text')
    .addColumn('commission', 'text')
    .addColumn('margin_used', 'text')
    .addColumn('margin_available', 'text')
    .addColumn('position_value', 'text')
    .addColumn('margin_rate', 'text')
    .addColumn('margin_closeout_percent', 'text')
    .addColumn('withdrawal_limit', 'text')
    .addColumn('open_trade_count', 'integer')
    .addColumn('open_position_count', 'integer')
    .addColumn('pending_order_count', 'integer')
    .addColumn('hedging_enabled', 'integer')
    .addColumn('opened_at', 'text')
    .addColumn('last_transaction_id', 'text')
    .addColumn('synced_at', 'text', (c) => c.notNull())
    // Trade sync checkpoint, written only when a trade sync of the account completes: the account's
    // lastTransactionID read before it started and the highest trade id it had stored. Null = next sync is full.
    .addColumn('trades_through_transaction_id', 'text')
    .addColumn('trades_high_id', 'text')
    .addColumn('trades_synced_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('broker_accounts_user_account_key', ['user_id', 'oanda_account_id'])
    .execute();
  await db.schema
    .createIndex('broker_accounts_user_created_idx')
    .on('broker_accounts')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('trades')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('oanda_account_id', 'text', (c) => c.notNull())
    .addColumn('trade_id', 'text', (c) => c.notNull())
    .addColumn('trade_num', 'bigint', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('instrument', 'text', (c) => c.notNull())
    .addColumn('price', 'text')
    .addColumn('initial_units', 'text', (c) => c.notNull())
    .addColumn('current_units', 'text', (c) => c.notNull())
    .addColumn('realized_pl', 'text', (c) => c.notNull())
    .addColumn('unrealized_pl', 'text')
    .addColumn('financing', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('open_time', 'text', (c) => c.notNull())
    .addColumn('close_time', 'text')
    .addColumn('average_close_price', 'text')
    .addColumn('stop_loss_price', 'text')
    .addColumn('take_profit_price', 'text')
    .addColumn('trailing_stop_distance', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trades_pkey', ['user_id', 'oanda_account_id', 'trade_id'])
    .addForeignKeyConstraint(
      'trades_account_fkey',
      ['user_id', 'oanda_account_id'],
      'broker_accounts',
      ['user_id', 'oanda_account_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  // The trade list: newest first per user (both engines read an ascending index backwards).
  await db.schema
    .createIndex('trades_user_open_time_idx')
    .on('trades')
    .columns(['user_id', 'open_time', 'trade_num'])
    .execute();
  // Analytics and the assistant: a user's history in one mode, in time order. Sync reads an account's trades
  // through the primary key's (user_id, oanda_account_id) prefix; every extra index slows the bulk insert.
  await db.schema
    .createIndex('trades_user_mode_time_idx')
    .on('trades')
    .columns(['user_id', 'mode', 'open_time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trades').execute();
  await db.schema.dropTable('broker_accounts').execute();
}
