import { closeSync, mkdirSync, openSync } from 'node:fs';
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
const sqliteClosers = new WeakMap<Kysely<Database>, Array<() => Promise<void>>>();

/**
 * The better-sqlite3 connection behind a Kysely made by `createDb` (undefined for PostgreSQL or any other Kysely).
 * For bulk paths that need more than Kysely gives (its file name, its settings). Reading settings is safe at any
 * time; run writes or transactions on it only inside `kysely.connection().execute(…)`, which holds Kysely's lock on
 * this one connection.
 */
export function sqliteHandleOf<DB>(kysely: Kysely<DB>): SQLite.Database | undefined {
  // A Kysely typed to some of the tables is the same object: its handle is found all the same.
  return sqliteHandles.get(kysely as unknown as Kysely<Database>);
}

/** Runs `close` when the SQLite database made by `createDb` for this Kysely closes (before its connection does). */
export function onSqliteClose(kysely: Kysely<Database>, close: () => Promise<void>): void {
  sqliteClosers.get(kysely)?.push(close);
}

/** Prepared statements kept by SQL text (most used last); beyond this many the least recently used is dropped. */
const STATEMENT_CACHE = 500;

/**
 * The connection as Kysely's SQLite dialect sees it, preparing each SQL text once: Kysely prepares every query it
 * runs, and parsing and planning the SQL cost more than running a small indexed query (bench/api.bench.ts: a page
 * of 10 trades 1.3 ms prepared each time, 0.14 ms reusing the statement). A statement still being iterated (a
 * streamed query) is busy: that caller gets a fresh one.
 */
export function withStatementCache(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SQLite.Statement {
      const cached = statements.get(sql);
      if (cached && !cached.busy) {
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      if (cached) return statement;
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
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
  // DATA_DIR readable by its owner only; the database created 0600, and so its -wal/-shm files (SQLite gives them the
  // database file's mode). An existing DATA_DIR is tightened at the server's start (lib/data-dir.ts, issue 12).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'pipsense.db');
  closeSync(openSync(file, 'a', 0o600));
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  sqliteHandles.set(kysely, sqlite);
  const closers: Array<() => Promise<void>> = [];
  sqliteClosers.set(kysely, closers);
  return {
    kysely,
    dialect: 'sqlite',
    close: async () => {
      await Promise.all(closers.splice(0).map((close) => close()));
      await kysely.destroy();
    },
  };
}
