/*
 * Run alone in a fresh Node process by bench/list.bench.ts (bundled to plain JavaScript first, so no TypeScript
 * loader shares the heap): exports one user's trades as CSV through the trade views and prints one JSON line
 * with the resident memory before and at its peak. Arguments: `stream` (the export as the route sends it, chunks
 * consumed as they come) or `all` (for comparison: every row collected first, then one CSV string), the database
 * (a SQLite data dir or a PostgreSQL URL) and the user id. Run with --expose-gc.
 */
import { createDb } from '../../apps/server/src/db/client';
import { listVersionReader } from '../../apps/server/src/db/data-versions';
import { createTradeViews } from '../../apps/server/src/modules/trade-views';
import { csvHeader, csvRow } from '../../apps/server/src/modules/trade-views/trade-export';
import { peakRss, resetPeak } from './peak-rss';

const [mode = 'stream', where = '', userId = ''] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const db = createDb(where.startsWith('postgres') ? { dataDir: '', databaseUrl: where } : { dataDir: where });
const views = createTradeViews({ db: db.kysely, listVersionOf: listVersionReader(db.kysely), now: () => new Date() });
// Warm the connection and the code paths with a tiny export, then measure from a collected heap.
for await (const chunk of (await views.exportTrades(userId, { instrument: 'NONE' }, 'UTC')).chunks) void chunk;
gc();
const rssStart = process.memoryUsage().rss;
const peakReset = resetPeak();
let sampled = rssStart;
const sampler = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 5);
const started = performance.now();
let bytes = 0;
let rows = 0;
if (mode === 'stream') {
  const { chunks } = await views.exportTrades(userId, {}, 'America/New_York');
  for await (const chunk of chunks) {
    bytes += Buffer.byteLength(chunk);
    rows += (chunk.match(/\r\n/g) ?? []).length;
  }
} else {
  const all = [];
  for await (const batch of await views.tradeBatches(userId, {})) all.push(...batch);
  let text = csvHeader();
  for (const t of all) text += csvRow(t, 'America/New_York');
  bytes = Buffer.byteLength(text);
  rows = all.length + 1;
}
const took = performance.now() - started;
clearInterval(sampler);
const peak = peakReset ? peakRss() : Math.max(sampled, process.memoryUsage().rss);
await db.close();
console.log(JSON.stringify({ mode, rows: rows - 1, bytes, ms: took, rssStart, peak, peakReset }));
process.exit(0);
