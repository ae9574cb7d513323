import type { Kysely } from 'kysely';

/*
 * user_info.home_currency: the trader's home currency (Profile), an ISO 4217 code; null until saved, when the
 * currency of the most trades stands in. Money figures that span accounts of several currencies are converted into
 * it or listed per currency (docs/decisions/024-currencies-never-mixed.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_info').addColumn('home_currency', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_info').dropColumn('home_currency').execute();
}
