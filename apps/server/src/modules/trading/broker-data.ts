import type { Selectable } from 'kysely';
import {
  BROKER_TIMES,
  platformByStored,
  type AccountItem,
  type BrokerTimeName,
  type Mode,
  type PlatformQuery,
  type TradeItem,
} from '@pipsense/contract';
import type { BrokerAccountsTable, TradesTable } from '../../db/schema';
import { normaliseDateTime } from '../../integrations/oanda/datetime';
import { apiAccountId } from './account-key';
import { idNumber, normaliseId } from '../../integrations/oanda/ids';
import type { WireAccountSummary, WireTrade } from '../../integrations/oanda/wire-schemas';
import { isDecimal, subtractDecimals, sumDecimals } from '../../domain/decimal';
import { sameColumns, type TradeRecord } from './trade-content';

/** OANDA sent a record we cannot store faithfully; the sync stops before writing it. */
export class BrokerDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrokerDataError';
  }
}

/** The first stop-loss order of a trade, as its transaction gave it: a price, or a distance from the entry. */
export interface FirstStop {
  transactionId: string;
  price: string | null;
  distance: string | null;
}

/** The initial stop's price: its own, or (given as a distance) that far from the entry against the trade. */
export function initialStopPrice(stop: FirstStop | undefined, trade: WireTrade): string | null {
  if (!stop) return null;
  if (isDecimal(stop.price)) return stop.price;
  if (!isDecimal(stop.distance) || !isDecimal(trade.price) || !isDecimal(trade.initialUnits)) return null;
  return trade.initialUnits.startsWith('-')
    ? sumDecimals([trade.price, stop.distance])
    : subtractDecimals(trade.price, stop.distance);
}

function time(value: string | null | undefined, what: string): string | null {
  const normalised = normaliseDateTime(value);
  if (normalised === undefined) throw new BrokerDataError(`${what} is not a date-time: ${JSON.stringify(value)}`);
  return normalised;
}

/**
 * A v20 Trade as a row. OANDA documents id, instrument, openTime, state and initialUnits as always present;
 * a trade without them cannot be shown, so it stops the sync. Amounts OANDA documents as always present but
 * omitted here are zero by definition (realizedPL "0" until reduced, financing "0", currentUnits "0" once
 * closed); fields that only exist sometimes stay null.
 */
export function tradeRecord(trade: WireTrade, mode: Mode, firstStop?: FirstStop): TradeRecord {
  const id = normaliseId(trade.id);
  const missing = (['instrument', 'openTime', 'state', 'initialUnits'] as const).filter((k) => !trade[k]);
  if (missing.length > 0) throw new BrokerDataError(`trade ${id} arrived without ${missing.join(', ')}`);
  const state = trade.state!;
  const openTime = time(trade.openTime, `trade ${id} openTime`);
  if (!openTime) throw new BrokerDataError(`trade ${id} has no open time`);
  const closeTime = time(trade.closeTime, `trade ${id} closeTime`);
  return {
    trade_id: id,
    trade_num: idNumber(id),
    mode,
    instrument: trade.instrument!,
    price: trade.price ?? null,
    initial_units: trade.initialUnits!,
    current_units: trade.currentUnits ?? (state === 'CLOSED' ? '0' : trade.initialUnits!),
    realized_pl: trade.realizedPL ?? '0',
    unrealized_pl: trade.unrealizedPL ?? null,
    financing: trade.financing ?? '0',
    state,
    open_time: openTime,
    close_time: closeTime,
    average_close_price: trade.averageClosePrice ?? null,
    stop_loss_price: level(trade.stopLossOrder, 'price', state, closeTime),
    take_profit_price: level(trade.takeProfitOrder, 'price', state, closeTime),
    trailing_stop_distance: level(trade.trailingStopLossOrder, 'distance', state, closeTime),
    initial_stop_loss_price: initialStopPrice(firstStop, trade),
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
  };
}

/**
 * The level a dependent order gave the trade. Closing a trade cancels its remaining orders, and the closed trade
 * still shows them: those levels held until the close. An order cancelled before that (or on a trade still
 * open) no longer protected the trade.
 */
function level(
  order: WireTrade['stopLossOrder'],
  field: 'price' | 'distance',
  state: string,
  closeTime: string | null,
): string | null {
  if (!order) return null;
  if (order.state === 'CANCELLED') {
    if (state !== 'CLOSED') return null;
    const cancelled = normaliseDateTime(order.cancelledTime);
    if (cancelled && closeTime && cancelled < closeTime) return null;
  }
  return order[field] ?? null;
}

/** The API's platform of a stored row (PLATFORM_TABLE); rows stored before migration 012 are OANDA's. */
const platformOfRow = (stored: string | null | undefined): PlatformQuery =>
  platformByStored(stored ?? 'oanda')?.query ?? 'oanda';

export function toTradeItem(row: Omit<Selectable<TradesTable>, 'excursion_attempts'>): TradeItem {
  return {
    tradeId: row.trade_id,
    accountId: apiAccountId(row.account_key),
    mode: row.mode as Mode,
    instrument: row.instrument,
    price: row.price,
    initialUnits: row.initial_units,
    currentUnits: row.current_units,
    realizedPL: row.realized_pl,
    unrealizedPL: row.unrealized_pl,
    financing: row.financing,
    state: row.state,
    openTime: row.open_time,
    closeTime: row.close_time,
    averageClosePrice: row.average_close_price,
    stopLossPrice: row.stop_loss_price,
    takeProfitPrice: row.take_profit_price,
    trailingStopDistance: row.trailing_stop_distance,
    updatedAt: row.updated_at,
    createdAt: row.created_at,
    platform: platformOfRow(row.platform),
    symbol: row.symbol ?? null,
    lots: row.lots ?? null,
    commission: row.commission ?? null,
    swap: row.swap ?? null,
  };
}

/** The summary fields an account row keeps; compared field by field to tell an update from a no-op. */
export const ACCOUNT_CONTENT = [
  'mode',
  'alias',
  'currency',
  'balance',
  'nav',
  'unrealized_pl',
  'pl',
  'financing',
  'commission',
  'margin_used',
  'margin_available',
  'position_value',
  'margin_rate',
  'margin_closeout_percent',
  'withdrawal_limit',
  'open_trade_count',
  'open_position_count',
  'pending_order_count',
  'hedging_enabled',
  'opened_at',
  'last_transaction_id',
] as const satisfies ReadonlyArray<keyof BrokerAccountsTable>;

export type AccountContent = Pick<BrokerAccountsTable, (typeof ACCOUNT_CONTENT)[number]>;

export function accountContent(
  summary: WireAccountSummary,
  lastTransactionID: string | null | undefined,
  mode: Mode,
): AccountContent {
  const int = (v: number | null | undefined) => (v === undefined || v === null ? null : v);
  return {
    mode,
    alias: summary.alias ?? null,
    currency: summary.currency ?? null,
    balance: summary.balance ?? null,
    nav: summary.NAV ?? null,
    unrealized_pl: summary.unrealizedPL ?? null,
    pl: summary.pl ?? null,
    financing: summary.financing ?? null,
    commission: summary.commission ?? null,
    margin_used: summary.marginUsed ?? null,
    margin_available: summary.marginAvailable ?? null,
    position_value: summary.positionValue ?? null,
    margin_rate: summary.marginRate ?? null,
    margin_closeout_percent: summary.marginCloseoutPercent ?? null,
    withdrawal_limit: summary.withdrawalLimit ?? null,
    open_trade_count: int(summary.openTradeCount),
    open_position_count: int(summary.openPositionCount),
    pending_order_count: int(summary.pendingOrderCount),
    hedging_enabled:
      summary.hedgingEnabled === undefined || summary.hedgingEnabled === null ? null : summary.hedgingEnabled ? 1 : 0,
    opened_at: time(summary.createdTime, `account ${summary.id} createdTime`),
    last_transaction_id: lastTransactionID ?? summary.lastTransactionID ?? null,
  };
}

export const sameAccountContent = (a: AccountContent, b: AccountContent): boolean => sameColumns(ACCOUNT_CONTENT, a, b);

export function toAccountItem(row: Selectable<BrokerAccountsTable>): AccountItem {
  return {
    id: row.id,
    userId: row.user_id,
    version: Number(row.version),
    // MetaTrader: the account key, the trades' accountId (apiAccountId).
    oandaAccountId: apiAccountId(row.account_key),
    mode: row.mode as Mode,
    alias: row.alias,
    currency: row.currency,
    balance: row.balance,
    NAV: row.nav,
    unrealizedPL: row.unrealized_pl,
    pl: row.pl,
    financing: row.financing,
    commission: row.commission,
    marginUsed: row.margin_used,
    marginAvailable: row.margin_available,
    positionValue: row.position_value,
    marginRate: row.margin_rate,
    marginCloseoutPercent: row.margin_closeout_percent,
    withdrawalLimit: row.withdrawal_limit,
    openTradeCount: row.open_trade_count === null ? null : Number(row.open_trade_count),
    openPositionCount: row.open_position_count === null ? null : Number(row.open_position_count),
    pendingOrderCount: row.pending_order_count === null ? null : Number(row.pending_order_count),
    hedgingEnabled: row.hedging_enabled === null ? null : Boolean(Number(row.hedging_enabled)),
    openedAt: row.opened_at,
    lastTransactionID: row.last_transaction_id,
    syncedAt: row.synced_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    platform: platformOfRow(row.platform),
    login: row.login,
    server: row.server,
    broker: row.broker ?? null,
    leverage: row.leverage ?? null,
    brokerTime: brokerTimeOf(row.broker_time),
    serverUtcOffset: row.utc_offset ?? null,
  };
}

/** An account's stored server clock rule (`broker_accounts.broker_time`); null for none or an unknown value. */
export const brokerTimeOf = (stored: string | null | undefined): BrokerTimeName | null =>
  BROKER_TIMES.find((b) => b === stored) ?? null;
