import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { onSqliteClose } from '../../db/client';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { WriteCounts } from './trade.repository';
import { SQLITE_TRADE_WORKER_SOURCE } from './sqlite-trade-worker-source';

/**
 * Rows per upsert statement in the writer thread: prepared once and run many times (Kysely's driver prepares every
 * query afresh, and preparing a 500-row statement cost about as much as running it); one-row runs take the rest.
 */
export const SQLITE_ROWS_PER_STATEMENT = 100;

export interface SqliteTradeWriterSql {
  /** The upsert of `rows` rows with `?` parameters, insert columns in order. */
  upsert(rows: number): string;
  /** Stored content by (user, account, JSON array of trade ids): `trade_id` and the content columns. */
  select: string;
  /** [column, index in a record row] of the content columns. */
  content: Array<[string, number]>;
}

/**
 * SQLite's trade upserts on a thread of their own, with a connection of its own to the same file. better-sqlite3
 * is synchronous: on the main thread a page's upsert held the event loop, so it could not overlap fetching and
 * parsing the next page, which is most of a sync. Each call is still one IMMEDIATE transaction (WAL: readers on
 * the main connection see it once committed, whole), and the caller awaits it before relying on the rows.
 * The thread starts on first use and stops when the database is closed.
 */
export function createSqliteTradeWriter(
  kysely: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  sql: SqliteTradeWriterSql,
) {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (c: WriteCounts) => void; reject: (e: Error) => void }>();

  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };

  function start(): Worker {
    const w = new Worker(SQLITE_TRADE_WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        filename: sqlite.name,
        busyTimeoutMs: Number(sqlite.pragma('busy_timeout', { simple: true })) || 5000,
        selectSql: sql.select,
        manySql: sql.upsert(SQLITE_ROWS_PER_STATEMENT),
        oneSql: sql.upsert(1),
        rowsPerStatement: SQLITE_ROWS_PER_STATEMENT,
        content: sql.content,
      },
    });
    w.on('message', (m: { id: number; counts?: WriteCounts; error?: { message: string; code?: string } }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
      else p.resolve(m.counts!);
      // An idle writer does not keep the process alive.
      if (pending.size === 0) w.unref();
    });
    w.on('error', (error) => {
      if (worker === w) worker = undefined;
      failAll(error);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = undefined;
      failAll(new Error(`the SQLite trade writer stopped (exit code ${code})`));
    });
    return w;
  }

  onSqliteClose(kysely, async () => {
    const w = worker;
    worker = undefined;
    if (w) await w.terminate();
  });

  return {
    /** Upserts one account's rows (values in record column order, trade_id first) in one transaction. */
    write(message: {
      userId: string;
      accountId: string;
      now: string;
      fresh: boolean;
      rows: unknown[][];
    }): Promise<WriteCounts> {
      worker ??= start();
      const w = worker;
      const id = (nextId += 1);
      const foreignKeys = Number(sqlite.pragma('foreign_keys', { simple: true })) === 1;
      return new Promise<WriteCounts>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.ref();
        w.postMessage({ id, foreignKeys, ...message });
      });
    },
  };
}
export type SqliteTradeWriter = ReturnType<typeof createSqliteTradeWriter>;
