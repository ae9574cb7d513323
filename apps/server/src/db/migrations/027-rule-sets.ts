import type { Kysely } from 'kysely';

/*
 * The rule sets of prop-firm challenges and personal risk rules (docs/rules.md), one row per set, owned by
 * modules/rules.
 *
 * - account_key: the account the set watches (trading/account-key.ts).
 * - preset: the preset it started from (engine/presets.ts), null for rules written by hand.
 * - start_time: UTC ISO-8601, the phase's start; initial_balance: the exact decimal `I`.
 * - rules: the rules as JSON, as the contract's ruleSchema reads them (params with their defaults filled).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rule_sets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('preset', 'text')
    .addColumn('start_time', 'text', (c) => c.notNull())
    .addColumn('initial_balance', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rule_sets_user_idx').on('rule_sets').columns(['user_id', 'account_key']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rule_sets').execute();
}
