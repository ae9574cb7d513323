import type { Kysely } from 'kysely';

/*
 * The trade list's playbook filters (`playbookId`, `playbookReview`) read the assigned trades' keys from
 * `trade_reviews` (trade-views/selection-sql.ts). By 030's `(user_id, playbook_id)` alone each of them cost a table
 * read for its key and review state (8,334 for one playbook in bench/list.bench.ts), and a review filter without a
 * playbook read the whole table. Both indexes hold the key, so the filter is answered from an index alone:
 *
 * - by playbook, then the review state (`followed_all`, `reviewed`): one playbook, with or without a state;
 * - by the review state alone: every playbook's trades not reviewed, followed or broke.
 *
 * The first starts with 030's columns, which it replaces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('trade_reviews_playbook_state_idx')
    .on('trade_reviews')
    .columns(['user_id', 'playbook_id', 'followed_all', 'reviewed', 'account_key', 'trade_id'])
    .execute();
  await db.schema
    .createIndex('trade_reviews_state_idx')
    .on('trade_reviews')
    .columns(['user_id', 'reviewed', 'followed_all', 'account_key', 'trade_id'])
    .execute();
  await db.schema.dropIndex('trade_reviews_playbook_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('trade_reviews_playbook_idx')
    .on('trade_reviews')
    .columns(['user_id', 'playbook_id'])
    .execute();
  await db.schema.dropIndex('trade_reviews_state_idx').execute();
  await db.schema.dropIndex('trade_reviews_playbook_state_idx').execute();
}
