import type { Kysely } from 'kysely';

/*
 * The stored day records of rule sets (docs/rules.md, Status), owned by modules/rules: what a rule set's status and
 * days are answered from while the account's data has not changed.
 *
 * rule_days, one row per completed day of a set:
 * - day: the day's number (days since 1970-01-01 of its local date); date: that date, 'YYYY-MM-DD'.
 * - record: the day record as JSON (the contract's dayRecordSchema); breaks: the trade-level breaks of the day (JSON).
 * - carried: the state the engine carries into the day (JSON; null on the set's first day): a pass resumes from it.
 * - digest: what the engine read of the day's inputs, hashed: the first day whose digest moved is recomputed.
 *
 * rule_set_states, one row per set: the data version and the set's `updated_at` the rows were computed at, the last
 * stored day, and the current day's answer (the status and the day's record) with the instant it holds until.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rule_days')
    .addColumn('rule_set_id', 'text', (c) => c.notNull().references('rule_sets.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('breaks', 'text', (c) => c.notNull())
    .addColumn('carried', 'text')
    .addColumn('digest', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rule_days_pk', ['rule_set_id', 'day'])
    .execute();
  await db.schema
    .createTable('rule_set_states')
    .addColumn('rule_set_id', 'text', (c) => c.primaryKey().references('rule_sets.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('set_stamp', 'text', (c) => c.notNull())
    .addColumn('data_version', 'text', (c) => c.notNull())
    .addColumn('inputs_digest', 'text', (c) => c.notNull())
    .addColumn('through_day', 'integer')
    .addColumn('today', 'text')
    .addColumn('valid_until', 'text')
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rule_set_states').execute();
  await db.schema.dropTable('rule_days').execute();
}
