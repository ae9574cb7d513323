import type { Kysely } from 'kysely';

/*
 * MAE/MFE (docs/decisions/010-initial-stop-and-excursions.md): how many times in a row fetching a closed trade's
 * candles failed, so the background job (modules/trading/excursions-job.ts) backs off exponentially before trying
 * again. Reset on success.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('trades')
    .addColumn('excursion_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('trades').dropColumn('excursion_attempts').execute();
}
