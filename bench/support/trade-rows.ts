import { oandaAccount } from '../../apps/server/src/modules/trading/account-key';
import type { EngineTrade } from '../../apps/server/src/modules/analytics/engine';

/** The app's `trades` columns the benchmarks fill, in the order of `tradeRow`'s values. */
export const TRADE_COLUMNS = `user_id, account_key, trade_id, trade_num, mode, instrument, price, initial_units,
  current_units, realized_pl, unrealized_pl, financing, state, open_time, close_time, average_close_price,
  stop_loss_price, take_profit_price, trailing_stop_distance, initial_stop_loss_price, created_at, updated_at`;

/** OANDA's stored time form (nine fractional digits). */
const stored = (ms: number) => `${new Date(ms).toISOString().slice(0, 23)}000000Z`;
const text = (v: number | null) => (v === null ? null : String(v));

/**
 * A synthetic trade as a demo-mode `trades` row, with OANDA's decimal strings and time form; the stop-loss at open
 * doubles as the initial stop.
 */
export function tradeRow(t: EngineTrade, userId: string, stamp: string): unknown[] {
  return [
    userId,
    oandaAccount('demo', t.accountId).account_key,
    t.tradeId,
    Number(t.tradeId),
    'demo',
    t.instrument,
    String(t.openPrice),
    String(t.units),
    String(t.currentUnits),
    t.realizedPL.toFixed(4),
    t.state === 'CLOSED' ? null : t.unrealizedPL.toFixed(4),
    t.financing.toFixed(4),
    t.state,
    stored(t.openTime),
    t.closeTime === null ? null : stored(t.closeTime),
    text(t.closePrice),
    text(t.stopLossPrice),
    text(t.takeProfitPrice),
    text(t.trailingStopDistance),
    text(t.stopLossPrice),
    stamp,
    stamp,
  ];
}
