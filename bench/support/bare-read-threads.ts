import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/*
 * The floor of a read on threads: plain threads that run the read side's statements on connections of their own and
 * only count the rows (nothing built from them), for the patterns bench's floor.
 */

const source = `
const { parentPort } = require('node:worker_threads');
const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
const connections = new Map();
parentPort.on('message', (m) => {
  let db = connections.get(m.filename);
  if (!db) connections.set(m.filename, (db = new Database(m.filename, { fileMustExist: true })));
  let rows = 0;
  for (const _ of db.prepare(m.sql).raw(true).iterate(...m.parameters)) rows++;
  parentPort.postMessage(rows);
});`;

export interface BareStatement {
  filename: string;
  sql: string;
  parameters: readonly unknown[];
}

export function bareReadThreads(count: number) {
  const workers = Array.from({ length: count }, () => new Worker(source, { eval: true }));
  const run = (w: Worker, s: BareStatement) =>
    new Promise<number>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
      w.postMessage({ filename: s.filename, sql: s.sql, parameters: [...s.parameters] });
    });
  return {
    /** Runs statement k on thread k; the rows read in all. */
    async read(statements: readonly BareStatement[]): Promise<number> {
      const counts = await Promise.all(statements.map((s, k) => run(workers[k % count]!, s)));
      return counts.reduce((a, b) => a + b, 0);
    },
    close: () => Promise.all(workers.map((w) => w.terminate())),
  };
}
