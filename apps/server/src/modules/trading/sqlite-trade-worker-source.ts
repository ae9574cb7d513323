/*
 * The body of the SQLite trade-writer thread (see sqlite-trade-writer.ts), as plain CommonJS run with
 * `new Worker(source, { eval: true })`: a source string works the same under tsx, vitest and the esbuild bundle,
 * where a separate worker file would not be where the bundle looks for it.
 *
 * workerData: { driver, filename, busyTimeoutMs, selectSql, manySql, oneSql, rowsPerStatement, content }
 *   content: [column name, index in a record row] for each column compared to tell an update from a no-op.
 * Message in:  { id, userId, accountId, now, fresh, foreignKeys, rows } (rows: values in record column order,
 *   trade_id first; the insert columns are user_id, oanda_account_id, those, created_at, updated_at)
 * Message out: { id, counts: { created, updated } } or { id, error: { message, code } }
 */
export const SQLITE_TRADE_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename);
// The app's connection set WAL (a property of the file); durability as on that connection.
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = ' + Number(workerData.busyTimeoutMs));
const select = db.prepare(workerData.selectSql);
const many = db.prepare(workerData.manySql);
const one = db.prepare(workerData.oneSql);
const per = workerData.rowsPerStatement;
const content = workerData.content;
let foreignKeys;

const write = db.transaction((m) => {
  const stored = new Map();
  if (!m.fresh)
    for (const row of select.all(m.userId, m.accountId, JSON.stringify(m.rows.map((r) => r[0]))))
      stored.set(row.trade_id, row);
  const counts = { created: 0, updated: 0 };
  const values = [];
  for (const record of m.rows) {
    const before = stored.get(record[0]);
    if (before) {
      let same = true;
      for (const [name, at] of content) if ((before[name] ?? null) !== (record[at] ?? null)) { same = false; break; }
      if (same) continue;
      counts.updated += 1;
    } else counts.created += 1;
    values.push(m.userId, m.accountId, ...record, m.now, m.now);
  }
  const rowWidth = m.rows.length > 0 ? m.rows[0].length + 4 : 0;
  const rows = rowWidth === 0 ? 0 : values.length / rowWidth;
  const full = Math.floor(rows / per) * per;
  for (let at = 0; at < full * rowWidth; at += per * rowWidth) many.run(values.slice(at, at + per * rowWidth));
  for (let at = full * rowWidth; at < values.length; at += rowWidth) one.run(values.slice(at, at + rowWidth));
  return counts;
});

parentPort.on('message', (m) => {
  try {
    // Follows the app connection's setting; it cannot change inside a transaction, so it is set before one.
    if (foreignKeys !== m.foreignKeys) {
      db.pragma('foreign_keys = ' + (m.foreignKeys ? 'ON' : 'OFF'));
      foreignKeys = m.foreignKeys;
    }
    parentPort.postMessage({ id: m.id, counts: write.immediate(m) });
  } catch (error) {
    parentPort.postMessage({ id: m.id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;
