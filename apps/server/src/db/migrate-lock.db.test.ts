import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgDatabase, testDialect } from '../test/harness';
import { until } from '../test/until';
import { createDb, type Db } from './client';
import { MIGRATION_LOCK, migrateToLatest } from './migrate';
import { migrations } from './migrations';

/*
 * Several instances starting at once on one empty PostgreSQL database: each runs the migrations at start, and
 * they must neither fail nor apply one twice (db/migrate.ts holds a PostgreSQL advisory lock around them).
 */
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function emptyDatabase(): Promise<string> {
  const database = await createPgDatabase();
  cleanup.push(database.drop);
  return database.url;
}

function open(url: string): Db {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-migrate-'));
  const db = createDb({ dataDir, databaseUrl: url });
  cleanup.push(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return db;
}

describe.skipIf(testDialect !== 'postgres')('migrations with several instances starting at once', () => {
  it('applies every migration exactly once when four instances migrate the same empty database together', async () => {
    const url = await emptyDatabase();
    const instances = [open(url), open(url), open(url), open(url)];
    const outcomes = await Promise.allSettled(instances.map((db) => migrateToLatest(db)));
    expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      instances[0]!.kysely,
    );
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
    // The schema answers: the newest tables are there.
    await sql`select count(*) from sync_schedules`.execute(instances[1]!.kysely);
  });

  it('waits while another instance holds the migration lock, then finds the schema it left', async () => {
    const url = await emptyDatabase();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    cleanup.push(() => holder.end());
    await holder.query('select pg_advisory_lock(hashtextextended($1, 0))', [MIGRATION_LOCK]);
    const db = open(url);
    let done = false;
    const migrating = migrateToLatest(db).then(() => (done = true));
    // The instance is queued behind the holder: its request for the lock waits, not granted.
    const waiting = async () =>
      (
        await holder.query(
          `select count(*)::int as n from pg_locks
           where locktype = 'advisory' and not granted
             and database = (select oid from pg_database where datname = current_database())`,
        )
      ).rows[0].n === 1;
    await until(waiting, 'the instance to wait for the migration lock', { ms: 20_000 });
    expect(done).toBe(false);
    const tables = await holder.query("select count(*)::int as n from pg_tables where tablename = 'kysely_migration'");
    expect(tables.rows[0].n).toBe(0);
    await holder.query('select pg_advisory_unlock(hashtextextended($1, 0))', [MIGRATION_LOCK]);
    await migrating;
    expect(done).toBe(true);
  });
});
