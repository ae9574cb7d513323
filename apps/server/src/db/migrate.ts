import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './client';
import { migrations } from './migrations';

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations as Record<string, Migration>),
};

/**
 * The key of the PostgreSQL session advisory lock held while an instance migrates (`hashtextextended` of this text):
 * instances started together on one database migrate one after another, the later ones finding nothing left to do.
 */
export const MIGRATION_LOCK = 'pipsense-migrations';

async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : 'see the server log';
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}

/**
 * Brings the schema to the latest version; the same migrations serve SQLite and PostgreSQL. Every instance runs
 * this at start: on PostgreSQL under a session advisory lock on one pooled connection (released by the unlock, or by
 * the connection closing if the instance dies), so that any number of instances starting at once apply each
 * migration once. Kysely's migrator takes a transaction lock of its own too; this one also covers the creation of
 * its bookkeeping tables, which happens before it.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  if (db.dialect !== 'postgres') return migrate(db);
  await db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtextextended(${MIGRATION_LOCK}, 0))`.execute(conn);
    try {
      await migrate(db);
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${MIGRATION_LOCK}, 0))`.execute(conn);
    }
  });
}
