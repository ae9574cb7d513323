import type { Selectable } from 'kysely';
import type { TradesTable } from '../../db/schema';

/*
 * What a trade row holds and how two of them are compared: the one test both trade write paths run (trade-upsert.ts).
 * Types aside it imports nothing, so the SQLite writer thread (sqlite-trade.worker.ts) loads no schema of the
 * contract and nothing of OANDA's (broker-data.ts turns OANDA's trades into these records).
 */

/** What a trade row holds from OANDA; compared field by field to tell an update from a no-op. */
export const TRADE_CONTENT = [
  'mode',
  'instrument',
  'price',
  'initial_units',
  'current_units',
  'realized_pl',
  'unrealized_pl',
  'financing',
  'state',
  'open_time',
  'close_time',
  'average_close_price',
  'stop_loss_price',
  'take_profit_price',
  'trailing_stop_distance',
  // The platform, and what imported MetaTrader rows carry beside OANDA's fields (null for OANDA).
  'platform',
  'symbol',
  'lots',
  'commission',
  'swap',
] as const satisfies ReadonlyArray<keyof TradesTable>;

export type TradeContent = Selectable<Pick<TradesTable, (typeof TRADE_CONTENT)[number]>>;
export type TradeRecord = TradeContent & {
  trade_id: string;
  trade_num: number;
  /** The first stop-loss attached to the trade; once stored, never replaced (trade-upsert.ts). */
  initial_stop_loss_price: string | null;
  /** Imported trades: the open time as the broker's server printed it (metatrader-store.ts); absent for OANDA's. */
  server_open_time?: string | null;
};

/** Whether two rows hold the same values in `columns`, a missing value being null: an update or a no-op. */
export function sameColumns<T>(columns: ReadonlyArray<keyof T>, a: T, b: T): boolean {
  for (const key of columns) if ((a[key] ?? null) !== (b[key] ?? null)) return false;
  return true;
}

/** Did this trade change: the one test both trade write paths (trade-upsert.ts) run. */
export const sameTradeContent = (a: TradeContent, b: TradeContent): boolean => sameColumns(TRADE_CONTENT, a, b);
