import type { TradesTable } from '../../db/schema';
import { sameTradeContent, TRADE_CONTENT, type TradeContent, type TradeRecord } from './trade-content';

/*
 * The trade upsert both write paths run: the SQL text and which records it writes. PostgreSQL runs it through
 * Kysely (trade.repository.ts); SQLite runs it on a thread of its own (sqlite-trade.worker.ts).
 */

export interface WriteCounts {
  created: number;
  updated: number;
}

const INSERT_COLUMNS = [
  'user_id',
  'account_key',
  'trade_id',
  'trade_num',
  ...TRADE_CONTENT,
  'initial_stop_loss_price',
  'server_open_time',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof TradesTable>;
const RECORD_COLUMNS = INSERT_COLUMNS.slice(2, -2) as Array<keyof TradeRecord>;
/**
 * An imported trade's server open time is what matched it to its row (domain/imported-trade-ids.ts), so it
 * never differs on an update; it is written all the same, for a row stored before the column was filled.
 */
const UPDATE_COLUMNS = [...TRADE_CONTENT, 'trade_num', 'server_open_time', 'updated_at'] as const;
/**
 * The first stop-loss is kept once known: a later sync (incremental or full) only fills it in while it is empty,
 * so neither a later stop nor a sync that did not read the opening transactions replaces it.
 */
const KEEP_FIRST =
  'initial_stop_loss_price = coalesce(trades.initial_stop_loss_price, excluded.initial_stop_loss_price)';

/**
 * A first stop learnt after its trade was written (a full sync writes pages while the stop-loss listing is still
 * being read): set only while it is empty, as KEEP_FIRST keeps it. Parameters: price, now, user, account key, trade
 * id (SQLite's form; PostgreSQL sets a batch at once in trade.repository.ts). No indexed column changes.
 */
export const FILL_STOP_SQL =
  'update trades set initial_stop_loss_price = ?, updated_at = ? ' +
  'where user_id = ? and account_key = ? and trade_id = ? and initial_stop_loss_price is null';

/** What is compared before a write: the trade's content and its initial stop. */
export type StoredTrade = TradeContent & { initial_stop_loss_price: string | null };
export const STORED_COLUMNS = [...TRADE_CONTENT, 'initial_stop_loss_price'] as const;

/**
 * The upsert of `rows` rows as SQL text. Built once per row count by the caller: building a 500-row × 21-column
 * statement through the query builder on every page costs more than the insert itself. Identifiers are the
 * constants above; values are parameters, numbered ($1, PostgreSQL) or not (?, SQLite).
 * `ON CONFLICT … DO UPDATE … excluded.` reads the same on SQLite and PostgreSQL.
 */
export function upsertSql(rows: number, numbered: boolean): string {
  const width = INSERT_COLUMNS.length;
  const tuples: string[] = [];
  for (let r = 0; r < rows; r += 1) {
    const marks: string[] = [];
    for (let c = 0; c < width; c += 1) marks.push(numbered ? `$${r * width + c + 1}` : '?');
    tuples.push(`(${marks.join(',')})`);
  }
  return (
    `insert into trades (${INSERT_COLUMNS.join(', ')}) values ${tuples.join(',')} ` +
    `on conflict (user_id, account_key, trade_id) do update set ${[...UPDATE_COLUMNS.map((c) => `${c} = excluded.${c}`), KEEP_FIRST].join(', ')}`
  );
}

/**
 * Which of one account's records to write, given what is stored for them (by trade id): new ones and changed
 * ones, as upsert parameters in INSERT_COLUMNS order; identical ones are left alone, so a re-run writes and
 * reports nothing.
 */
export function planUpsert(
  stored: ReadonlyMap<string, StoredTrade>,
  records: readonly TradeRecord[],
  key: { userId: string; accountKey: string; now: string },
): { params: unknown[]; rows: number; counts: WriteCounts } {
  const counts: WriteCounts = { created: 0, updated: 0 };
  const params: unknown[] = [];
  let rows = 0;
  for (const record of records) {
    const before = stored.get(record.trade_id);
    const learnsStop = before?.initial_stop_loss_price == null && record.initial_stop_loss_price !== null;
    if (before && sameTradeContent(before, record) && !learnsStop) continue;
    if (before) counts.updated += 1;
    else counts.created += 1;
    params.push(key.userId, key.accountKey);
    for (const column of RECORD_COLUMNS) params.push(record[column] ?? null);
    params.push(key.now, key.now);
    rows += 1;
  }
  return { params, rows, counts };
}
