import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/workers';
import type { PatternBook } from './pattern-book';

/** One part of a book to build on a thread: the read side's compiled statement for it and what the rows need. */
export interface PatternBookRequest {
  id: number;
  filename: string;
  busyTimeoutMs: number;
  sql: string;
  parameters: unknown[];
  currencies: Array<[string, string]>;
  stops: Array<[string, string[]]>;
}

export type PatternBookReply = { id: number; book: PatternBook; error?: undefined } | { id: number; error: string };

/** A statement of the read side for one part of the book, and the database file it reads. */
export interface PartStatement {
  filename: string;
  busyTimeoutMs: number;
  sql: string;
  parameters: readonly unknown[];
}

/**
 * Threads that build parts of large pattern books at once (docs/decisions/026-pattern-book-on-threads.md): on
 * SQLite the read and the per-row work are synchronous, so a 100,000-trade book on the request's thread held the
 * event loop for most of a second, and one thread could not use the machine's other core. One thread a core, two to
 * four. Each thread starts on first use, does not keep the process alive while idle, and stops on `close`.
 */
export function createPatternBookThreads(count = Math.min(4, Math.max(2, availableParallelism()))) {
  const slots = new Array<Worker | undefined>(count).fill(undefined);
  const pending = new Map<number, { resolve: (b: PatternBook) => void; reject: (e: Error) => void; slot: number }>();
  const busy = new Array<number>(count).fill(0);
  let nextId = 0;

  function start(slot: number): Worker {
    const w = startWorker(new URL('./pattern-book.worker.ts', import.meta.url));
    const failAll = (error: Error) => {
      for (const [id, p] of pending)
        if (p.slot === slot) {
          pending.delete(id);
          p.reject(error);
        }
      busy[slot] = 0;
    };
    w.on('message', (m: PatternBookReply) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.book);
      if ((busy[slot]! -= 1) === 0) w.unref();
    });
    w.on('error', (error) => {
      if (slots[slot] === w) slots[slot] = undefined;
      failAll(error);
    });
    w.on('exit', (code) => {
      if (slots[slot] === w) slots[slot] = undefined;
      failAll(new Error(`a pattern book thread stopped (exit code ${code})`));
    });
    return w;
  }

  return {
    count,
    /** Builds one part on the least busy thread. */
    build(part: PartStatement, currencies: ReadonlyMap<string, string>, stops: ReadonlyMap<string, string[]>) {
      let slot = 0;
      for (let s = 1; s < count; s++) if (busy[s]! < busy[slot]!) slot = s;
      const w = (slots[slot] ??= start(slot));
      const id = (nextId += 1);
      const request: PatternBookRequest = {
        id,
        filename: part.filename,
        busyTimeoutMs: part.busyTimeoutMs,
        sql: part.sql,
        parameters: [...part.parameters],
        currencies: [...currencies],
        stops: [...stops],
      };
      return new Promise<PatternBook>((resolve, reject) => {
        pending.set(id, { resolve, reject, slot });
        busy[slot]! += 1;
        w.ref();
        w.postMessage(request);
      });
    },
    async close(): Promise<void> {
      const running = slots.splice(0, count, ...new Array<Worker | undefined>(count).fill(undefined));
      await Promise.all(running.map((w) => (w ? w.terminate() : Promise.resolve(0))));
    },
  };
}
export type PatternBookThreads = ReturnType<typeof createPatternBookThreads>;
