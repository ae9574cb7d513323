import type { Kysely } from 'kysely';

/*
 * Playbooks, trade reviews and missed trades (docs/review.md), owned by modules/playbooks.
 *
 * - playbooks: the trader's setups; instruments and sessions as JSON lists, default_risk_pct a number or null.
 * - playbook_groups / playbook_rules: the checklist, in `position` order. A group or rule left out of an edit gets
 *   `retired_at` instead of being deleted: reviews that ticked it keep their history.
 * - trade_reviews: a trade (by its keys, as the journal names trades) assigned to one playbook. `rule_ids`: the
 *   rules it was reviewed against (JSON, the playbook's current rules when reviewed); `followed_rule_ids`: those
 *   ticked; `followed_all`: 1 when every rule of `rule_ids` was ticked, 0 when one was not, null while not reviewed,
 *   so that the trade list filters on it in SQL.
 * - missed_trades: setups seen and not taken; prices as exact decimal strings; the playbook is optional and is
 *   cleared when the playbook is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('playbooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('instruments', 'text', (c) => c.notNull())
    .addColumn('sessions', 'text', (c) => c.notNull())
    .addColumn('default_risk_pct', 'real')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('playbooks_user_idx').on('playbooks').column('user_id').execute();
  await db.schema
    .createTable('playbook_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('playbook_id', 'text', (c) => c.notNull().references('playbooks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('retired_at', 'text')
    .execute();
  await db.schema.createIndex('playbook_groups_playbook_idx').on('playbook_groups').column('playbook_id').execute();
  await db.schema
    .createTable('playbook_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('playbook_id', 'text', (c) => c.notNull().references('playbooks.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('playbook_groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('retired_at', 'text')
    .execute();
  await db.schema.createIndex('playbook_rules_playbook_idx').on('playbook_rules').column('playbook_id').execute();
  await db.schema
    .createTable('trade_reviews')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('trade_id', 'text', (c) => c.notNull())
    .addColumn('playbook_id', 'text', (c) => c.notNull().references('playbooks.id').onDelete('cascade'))
    .addColumn('reviewed', 'integer', (c) => c.notNull())
    .addColumn('rule_ids', 'text', (c) => c.notNull())
    .addColumn('followed_rule_ids', 'text', (c) => c.notNull())
    .addColumn('followed_all', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trade_reviews_pk', ['user_id', 'account_key', 'trade_id'])
    .execute();
  await db.schema
    .createIndex('trade_reviews_playbook_idx')
    .on('trade_reviews')
    .columns(['user_id', 'playbook_id'])
    .execute();
  await db.schema
    .createTable('missed_trades')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('playbook_id', 'text', (c) => c.references('playbooks.id').onDelete('set null'))
    .addColumn('instrument', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('stop', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('missed_trades_user_idx').on('missed_trades').columns(['user_id', 'time']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('missed_trades').execute();
  await db.schema.dropTable('trade_reviews').execute();
  await db.schema.dropTable('playbook_rules').execute();
  await db.schema.dropTable('playbook_groups').execute();
  await db.schema.dropTable('playbooks').execute();
}
