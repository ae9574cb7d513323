import type { Kysely } from 'kysely';

/*
 * The balance operations of an imported account (docs/decisions/012-metatrader-import.md, Balance operations):
 * deposits, withdrawals, credits, bonuses and corrections as the report prints them, one row per operation, so
 * that the money put into and taken out of an account is known apart from its trading.
 *
 * - operation_id: the MetaTrader ticket or deal when the report prints one, else a key made of the printed type,
 *   the server time, the amount and the occurrence (metatrader-store.ts balanceOperationRecords), so a re-import
 *   of the same or an overlapping report names every operation as before.
 * - time: UTC in the stored form of trade times; server_time: the broker's wall-clock time as printed.
 * - type: deposit, withdrawal, credit, bonus, correction or other; printed_type: the report's own word.
 * - amount: the exact decimal, signed (a withdrawal is negative); currency: the account's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('balance_operations')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('server_time', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('printed_type', 'text', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('currency', 'text')
    .addColumn('comment', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('balance_operations_pk', ['user_id', 'account_key', 'operation_id'])
    .execute();
  // An account's operations in time order: the list and, later, the account's money over time.
  await db.schema
    .createIndex('balance_operations_account_time_idx')
    .on('balance_operations')
    .columns(['user_id', 'account_key', 'time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('balance_operations').execute();
}
