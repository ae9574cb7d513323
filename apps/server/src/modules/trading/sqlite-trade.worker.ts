/*
 * The SQLite trade-writer thread (see sqlite-trade-writer.ts), started through lib/workers.ts.
 * It opens its own connection to the app's database file and runs each message as one IMMEDIATE transaction.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { SqliteTradeWriterData, SqliteWriteReply, SqliteWriteRequest } from './sqlite-trade-writer';
import { unpackRecords } from './trade-pack';
import { FILL_STOP_SQL, planUpsert, STORED_COLUMNS, upsertSql, type StoredTrade } from './trade-upsert';

const data = workerData as SqliteTradeWriterData;
const db = new Database(data.filename);
// The app's connection set WAL (a property of the file); durability as on that connection.
db.pragma('synchronous = NORMAL');
db.pragma(`busy_timeout = ${Number(data.busyTimeoutMs)}`);
const select = db.prepare<[string, string, string], StoredTrade & { trade_id: string }>(
  `select trade_id, ${STORED_COLUMNS.join(', ')} from trades ` +
    'where user_id = ? and account_key = ? and trade_id in (select value from json_each(?))',
);
const per = data.rowsPerStatement;
const many = db.prepare(upsertSql(per, false));
const one = db.prepare(upsertSql(1, false));
const fillStop = db.prepare<[string, string, string, string, string]>(FILL_STOP_SQL);
let foreignKeys: boolean | undefined;

const write = db.transaction((m: SqliteWriteRequest) => {
  for (const statement of m.statements ?? []) db.prepare(statement.sql).run(statement.parameters);
  const stored = new Map<string, StoredTrade>();
  if (!m.fresh)
    for (const row of select.all(m.userId, m.accountKey, JSON.stringify(m.records.map((r) => r.trade_id))))
      stored.set(row.trade_id, row);
  const { params, rows, counts } = planUpsert(stored, m.records, m);
  const width = rows === 0 ? 0 : params.length / rows;
  const full = Math.floor(rows / per) * per;
  for (let at = 0; at < full * width; at += per * width) many.run(params.slice(at, at + per * width));
  for (let at = full * width; at < params.length; at += width) one.run(params.slice(at, at + width));
  let filled = 0;
  for (const [tradeId, price] of m.stops ?? [])
    filled += fillStop.run(price, m.now, m.userId, m.accountKey, tradeId).changes;
  if (m.whenChanged && counts.created + counts.updated + filled > 0)
    db.prepare(m.whenChanged.sql).run(m.whenChanged.parameters);
  return counts;
});

parentPort!.on('message', (m: SqliteWriteRequest) => {
  let reply: SqliteWriteReply;
  try {
    // Follows the app connection's setting; it cannot change inside a transaction, so it is set before one.
    if (foreignKeys !== m.foreignKeys) {
      db.pragma(`foreign_keys = ${m.foreignKeys ? 'ON' : 'OFF'}`);
      foreignKeys = m.foreignKeys;
    }
    reply = { id: m.id, counts: write.immediate({ ...m, records: unpackRecords(m), packed: undefined }) };
  } catch (error) {
    const e = error as { message?: unknown; code?: unknown };
    reply = {
      id: m.id,
      error: { message: String(e?.message), code: typeof e?.code === 'string' ? e.code : undefined },
    };
  }
  parentPort!.postMessage(reply);
});
