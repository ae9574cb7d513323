import { sql, type Kysely } from 'kysely';

/*
 * MetaTrader 4/5 and CSV import (docs/decisions/012-metatrader-import.md).
 *
 * - trades: the platform (PLATFORM_TABLE's stored value; every existing row is OANDA's), and what imported rows carry
 *   beside OANDA's fields: the symbol as the report printed it, the lots, commission and swap (null for OANDA).
 * - broker_accounts: the broker's name, the leverage and the server's UTC offset (remembered per account).
 * - imports: an upload's parsed result between preview and confirm (`payload` JSON), discarded on cancel, after
 *   confirm, or when it expires; `summary` is the preview shown.
 * - import_mappings: a user's saved CSV column mappings.
 * - contract_sizes: a user's corrections of units per lot, by symbol (upper case, as printed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('trades')
    .addColumn('platform', 'text', (c) => c.notNull().defaultTo('oanda'))
    .execute();
  for (const column of ['symbol', 'lots', 'commission', 'swap'])
    await db.schema.alterTable('trades').addColumn(column, 'text').execute();
  for (const column of ['broker', 'leverage', 'utc_offset'])
    await db.schema.alterTable('broker_accounts').addColumn(column, 'text').execute();
  await sql`create index trades_user_platform_open_time_idx on trades (user_id, platform, open_time)`.execute(db);

  await db.schema
    .createTable('imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text')
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('imports_user_idx').on('imports').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('import_mappings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('import_mappings_user_name_key', ['user_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('contract_sizes')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('symbol_key', 'text', (c) => c.notNull())
    .addColumn('size', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('contract_sizes_pk', ['user_id', 'symbol_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contract_sizes').execute();
  await db.schema.dropTable('import_mappings').execute();
  await db.schema.dropTable('imports').execute();
  await db.schema.dropIndex('trades_user_platform_open_time_idx').execute();
  for (const column of ['broker', 'leverage', 'utc_offset'])
    await db.schema.alterTable('broker_accounts').dropColumn(column).execute();
  for (const column of ['platform', 'symbol', 'lots', 'commission', 'swap'])
    await db.schema.alterTable('trades').dropColumn(column).execute();
}
