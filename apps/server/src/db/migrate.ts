import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './client';
import { migrations } from './migrations';

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations as Record<string, Migration>),
};

/** Brings the schema to the latest version; the same migrations serve SQLite and PostgreSQL. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : 'see the server log';
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}
