import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database, Dialect } from './schema';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface DbOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
}

// Kysely does not expose its driver's connection; createDb records it for the bulk paths that need it.
const sqliteHandles = new WeakMap<Kysely<Database>, SQLite.Database>();

/**
 * The better-sqlite3 connection behind a Kysely made by `createDb` (undefined for PostgreSQL or any other Kysely).
 * Kysely's SQLite driver prepares every query afresh; bulk writes that run one statement thousands of times can keep
 * it prepared here. Use it only inside `kysely.connection().execute(…)`, which holds Kysely's lock on this one
 * connection, so no Kysely transaction is open on it meanwhile.
 */
export function sqliteHandleOf(kysely: Kysely<Database>): SQLite.Database | undefined {
  return sqliteHandles.get(kysely);
}

/** SQLite in `<dataDir>/pipsense.db` (WAL) by default; PostgreSQL when a URL is given. */
export function createDb({ dataDir, databaseUrl }: DbOptions): Db {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // An idle connection dropped by the server (restart, failover) must not crash the process: the pool replaces it.
    pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(join(dataDir, 'pipsense.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  sqliteHandles.set(kysely, sqlite);
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}
