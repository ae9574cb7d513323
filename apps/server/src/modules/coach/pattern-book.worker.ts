/*
 * A thread that builds one part of a trader's pattern book (pattern-book.ts) from the read side's compiled statement
 * for that part, on a SQLite connection of its own to the app's file (docs/decisions/026-pattern-book-on-threads.md).
 * Started through lib/workers.ts by pattern-book-threads.ts.
 */
import { parentPort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { bookBuffers, createBookBuilder } from './pattern-book';
import type { PatternBookReply, PatternBookRequest } from './pattern-book-threads';
import type { PatternRow } from '../trade-views';

const connections = new Map<string, Database.Database>();

function connection(filename: string, busyTimeoutMs: number): Database.Database {
  let db = connections.get(filename);
  if (!db) {
    db = new Database(filename, { fileMustExist: true });
    db.pragma(`busy_timeout = ${Number(busyTimeoutMs)}`);
    connections.set(filename, db);
  }
  return db;
}

parentPort!.on('message', (m: PatternBookRequest) => {
  let reply: PatternBookReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const builder = createBookBuilder(new Map(m.currencies), new Map(m.stops));
    const statement = connection(m.filename, m.busyTimeoutMs).prepare(m.sql).raw(true);
    for (const row of statement.iterate(...m.parameters) as IterableIterator<PatternRow>) builder.add(row);
    const book = builder.finish();
    reply = { id: m.id, book };
    transfer = bookBuffers(book);
  } catch (error) {
    reply = { id: m.id, error: String((error as { message?: unknown })?.message ?? error) };
  }
  parentPort!.postMessage(reply, transfer);
});
