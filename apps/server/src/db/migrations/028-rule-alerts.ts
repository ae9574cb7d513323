import type { Kysely } from 'kysely';

/*
 * Alerts of the rules module (docs/rules.md, Alerts), owned by modules/rules.
 *
 * - rule_sets.alert_thresholds: the percents of a loss limit's use at which the trader is told, as JSON (ascending);
 *   rule_sets.email_alerts: 1 when the alerts are mailed too (default 0: in the app only).
 * - rule_alerts: one row per rule set, kind (daily_loss, max_loss), local day (YYYY-MM-DD in the set's reset zone)
 *   and threshold, whichever instance noticed it first (UNIQUE, inserted with ON CONFLICT DO NOTHING). limit, used
 *   and remaining are exact decimals in `currency`; percent_used an exact decimal (80.25). A rule set's deletion
 *   deletes its alerts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('rule_sets')
    .addColumn('alert_thresholds', 'text', (c) => c.notNull().defaultTo('[50,80,100]'))
    .execute();
  await db.schema
    .alterTable('rule_sets')
    .addColumn('email_alerts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('rule_alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('rule_set_id', 'text', (c) => c.notNull().references('rule_sets.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('percent_used', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('limit', 'text', (c) => c.notNull())
    .addColumn('used', 'text', (c) => c.notNull())
    .addColumn('remaining', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addColumn('emailed_at', 'text')
    .addUniqueConstraint('rule_alerts_once', ['rule_set_id', 'kind', 'day', 'threshold'])
    .execute();
  await db.schema.createIndex('rule_alerts_user_idx').on('rule_alerts').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rule_alerts').execute();
  await db.schema.alterTable('rule_sets').dropColumn('email_alerts').execute();
  await db.schema.alterTable('rule_sets').dropColumn('alert_thresholds').execute();
}
