import { sql, type Kysely } from 'kysely';

/*
 * One identity for accounts and trades on any platform (docs/decisions/007-account-and-trade-keys.md).
 * broker_accounts: `oanda_account_id` becomes `login`, beside `platform` and `server`; `account_key`
 * (`<platform>:<server>:<login>`) is unique per user. trades: keyed by (user_id, account_key, trade_id) instead of
 * (user_id, oanda_account_id, trade_id). Every existing row is OANDA's: platform 'oanda', server 'fxtrade' for
 * live accounts and 'fxpractice' for demo ones, every other value carried over as it was.
 *
 * A primary key cannot change in place on SQLite, so both tables are copied aside, made again and filled from the
 * copies: the same statements on SQLite and PostgreSQL. Column lists are spelled out here (not taken from the
 * code) so that this migration stays what it was when released.
 */

const ACCOUNT_COLUMNS = [
  'id',
  'user_id',
  'mode',
  'alias',
  'currency',
  'balance',
  'nav',
  'unrealized_pl',
  'pl',
  'financing',
  'commission',
  'margin_used',
  'margin_available',
  'position_value',
  'margin_rate',
  'margin_closeout_percent',
  'withdrawal_limit',
  'open_trade_count',
  'open_position_count',
  'pending_order_count',
  'hedging_enabled',
  'opened_at',
  'last_transaction_id',
  'synced_at',
  'trades_through_transaction_id',
  'trades_high_id',
  'trades_synced_at',
  'version',
  'created_at',
  'updated_at',
];

const TRADE_COLUMNS = [
  'user_id',
  'trade_id',
  'trade_num',
  'mode',
  'instrument',
  'price',
  'initial_units',
  'current_units',
  'realized_pl',
  'unrealized_pl',
  'financing',
  'state',
  'open_time',
  'close_time',
  'average_close_price',
  'stop_loss_price',
  'take_profit_price',
  'trailing_stop_distance',
  'created_at',
  'updated_at',
];

const server = (mode: string) => sql.raw(`(case when ${mode} = 'live' then 'fxtrade' else 'fxpractice' end)`);
const list = (columns: string[], prefix = '') => sql.raw(columns.map((c) => prefix + c).join(', '));

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table broker_accounts_005 as select * from broker_accounts`.execute(db);
  await sql`create table trades_005 as select * from trades`.execute(db);
  await db.schema.dropTable('trades').execute();
  await db.schema.dropTable('broker_accounts').execute();

  await db.schema
    .createTable('broker_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('server', 'text', (c) => c.notNull())
    .addColumn('login', 'text', (c) => c.notNull())
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
    .addColumn('trades_through_transaction_id', 'text')
    .addColumn('trades_high_id', 'text')
    .addColumn('trades_synced_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('broker_accounts_user_account_key', ['user_id', 'account_key'])
    .execute();
  await db.schema
    .createIndex('broker_accounts_user_created_idx')
    .on('broker_accounts')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('trades')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('account_key', 'text', (c) => c.notNull())
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
    .addPrimaryKeyConstraint('trades_pkey', ['user_id', 'account_key', 'trade_id'])
    .addForeignKeyConstraint(
      'trades_account_fkey',
      ['user_id', 'account_key'],
      'broker_accounts',
      ['user_id', 'account_key'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  // The indexes of 002 and 005, as they were.
  for (const [name, columns] of [
    ['trades_user_open_time_idx', ['user_id', 'open_time', 'trade_num']],
    ['trades_user_mode_time_idx', ['user_id', 'mode', 'open_time']],
    ['trades_user_mode_close_time_idx', ['user_id', 'mode', 'close_time']],
    ['trades_user_mode_updated_idx', ['user_id', 'mode', 'updated_at']],
  ] as const)
    await db.schema
      .createIndex(name)
      .on('trades')
      .columns([...columns])
      .execute();

  await sql`
    insert into broker_accounts (account_key, platform, server, login, ${list(ACCOUNT_COLUMNS)})
    select 'oanda:' || ${server('mode')} || ':' || oanda_account_id, 'oanda', ${server('mode')}, oanda_account_id,
      ${list(ACCOUNT_COLUMNS)}
    from broker_accounts_005`.execute(db);
  // A trade takes its account's server (its own mode only if it has no account row: a connection without
  // foreign keys could have left one).
  await sql`
    insert into trades (account_key, ${list(TRADE_COLUMNS)})
    select 'oanda:' || ${server('coalesce(a.mode, t.mode)')} || ':' || t.oanda_account_id, ${list(TRADE_COLUMNS, 't.')}
    from trades_005 t
    left join broker_accounts_005 a on a.user_id = t.user_id and a.oanda_account_id = t.oanda_account_id`.execute(db);
  await db.schema.dropTable('trades_005').execute();
  await db.schema.dropTable('broker_accounts_005').execute();
}

export async function down(): Promise<void> {
  throw new Error('006-account-and-trade-keys cannot be undone: restore a backup taken before it.');
}
