import type { Kysely } from 'kysely';

/*
 * Revocable sessions and account recovery by email (SECURITY.md).
 *
 * - users.session_version: every token carries the version it was signed under (`sv`); a password change, a reset,
 *   "log out everywhere" or the account's deletion moves it, and every older token stops working.
 * - users.email_confirmed_at: when the emailed confirmation link was opened (null: not yet; the account works).
 * - revoked_tokens: one signed-out token (its `jti`) until its own expiry, after which it is pruned.
 * - email_tokens: the emailed links (purpose `confirm` or `reset`), only their SHA-256 at rest; single use
 *   (`used_at`), valid until `expires_at`; `email` is the address the link was sent to.
 * - feedback: the messages of the in-app feedback button.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('email_confirmed_at', 'text').execute();
  await db.schema
    .createTable('revoked_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revoked_tokens_user_idx').on('revoked_tokens').columns(['user_id']).execute();
  await db.schema
    .createTable('email_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('email_tokens_user_idx')
    .on('email_tokens')
    .columns(['user_id', 'purpose', 'created_at'])
    .execute();
  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('mailed_at', 'text')
    .execute();
  await db.schema.createIndex('feedback_user_idx').on('feedback').columns(['user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('feedback').execute();
  await db.schema.dropTable('email_tokens').execute();
  await db.schema.dropTable('revoked_tokens').execute();
  await db.schema.alterTable('users').dropColumn('email_confirmed_at').execute();
  await db.schema.alterTable('users').dropColumn('session_version').execute();
}
