import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { onSqliteClose } from '../../db/client';
import { startWorker } from '../../lib/workers';
import type { TradeRecord } from './trade-content';
import type { WriteCounts } from './trade-upsert';
import { pack, PACK_SLICE } from './trade-pack';
import type { TradingDb } from './tables';

/**
 * Rows per upsert statement in the writer thread: prepared once and run many times (Kysely's driver prepares every
 * query afresh, and preparing a 500-row statement cost about as much as running it); one-row runs take the rest.
 */
export const SQLITE_ROWS_PER_STATEMENT = 100;

/** What the thread (sqlite-trade.worker.ts) starts with. */
export interface SqliteTradeWriterData {
  filename: string;
  busyTimeoutMs: number;
  rowsPerStatement: number;
}

/** One account's records to store in one transaction; `foreignKeys` follows the app connection's setting. */
export interface SqliteWriteRequest {
  id: number;
  userId: string;
  accountKey: string;
  now: string;
  fresh: boolean;
  foreignKeys: boolean;
  records: TradeRecord[];
  /**
   * Large writes (an import of 100,000 trades): the records as JSON arrays in transferred buffers instead of
   * `records` (cloning that many objects in postMessage held the event loop for over half a second).
   */
  packed?: ArrayBuffer[] | undefined;
  /** Statements run first in the same transaction (an import's account row), compiled by Kysely for SQLite. */
  statements?: Array<{ sql: string; parameters: unknown[] }> | undefined;
  /** First stops learnt after their trades were written: (trade id, price), each set only while empty (FILL_STOP_SQL). */
  stops?: Array<[string, string]> | undefined;
  /** Run last in the same transaction when the write created or changed a row (the data version's bump). */
  whenChanged?: { sql: string; parameters: unknown[] } | undefined;
}

export type SqliteWriteReply =
  | { id: number; counts: WriteCounts; error?: undefined }
  | { id: number; counts?: undefined; error: { message: string; code: string | undefined } };

/**
 * SQLite's trade upserts on a thread of their own, with a connection of its own to the same file. better-sqlite3
 * is synchronous: on the main thread a page's upsert held the event loop, so it could not overlap fetching and
 * parsing the next page, which is most of a sync. Each call is still one IMMEDIATE transaction (WAL: readers on
 * the main connection see it once committed, whole), and the caller awaits it before relying on the rows.
 * The thread starts on first use and stops when the database is closed.
 */
export function createSqliteTradeWriter(kysely: Kysely<TradingDb>, sqlite: BetterSqlite3.Database) {
  let worker: ReturnType<typeof startWorker> | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (c: WriteCounts) => void; reject: (e: Error) => void }>();

  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };

  function start() {
    const workerData: SqliteTradeWriterData = {
      filename: sqlite.name,
      busyTimeoutMs: Number(sqlite.pragma('busy_timeout', { simple: true })) || 5000,
      rowsPerStatement: SQLITE_ROWS_PER_STATEMENT,
    };
    const w = startWorker(new URL('./sqlite-trade.worker.ts', import.meta.url), { workerData });
    w.on('message', (m: SqliteWriteReply) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
      else p.resolve(m.counts);
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
    /** Upserts one account's records in one transaction. */
    async write(message: Omit<SqliteWriteRequest, 'id' | 'foreignKeys' | 'packed'>): Promise<WriteCounts> {
      const packed = message.records.length > PACK_SLICE ? await pack(message.records) : undefined;
      worker ??= start();
      const w = worker;
      const id = (nextId += 1);
      const foreignKeys = Number(sqlite.pragma('foreign_keys', { simple: true })) === 1;
      const request: SqliteWriteRequest = packed
        ? { id, foreignKeys, ...message, records: [], packed }
        : { id, foreignKeys, ...message };
      return new Promise<WriteCounts>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.ref();
        w.postMessage(request, packed ?? []);
      });
    },
  };
}
