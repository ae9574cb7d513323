import { Migrator, type Kysely, type Migration } from 'kysely';
import { migrations } from '../db/migrations';

/**
 * Runs the migrations up to and including `name` and no further (later ones add columns a migration's test does not
 * describe), so that the test can write rows in the shape before the migration it checks and then run it. Typed by
 * the caller's schema of that time (`Kysely<Schema014>`).
 */
export async function migrateTo<S>(kysely: Kysely<S>, name: keyof typeof migrations): Promise<void> {
  const migrator = new Migrator({
    db: kysely,
    provider: { getMigrations: () => Promise.resolve(migrations as Record<string, Migration>) },
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
}
