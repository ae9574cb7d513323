import type { BalanceOperationType, BrokerTimeName, Mode } from '@pipsense/contract';
import { storedDateTime } from '../../domain/datetime';
import { tradeIdNamer, type StoredOpenTime } from '../../domain/imported-trade-ids';
import { compareDecimals, sumDecimals, trimDecimal } from '../../domain/decimal';
import type { BrokerAccountsTable } from '../../db/schema';
import { ACCOUNT_CONTENT, type AccountContent } from './broker-data';
import type { TradeRecord } from './trade-content';

/*
 * What an imported MetaTrader report stores (docs/decisions/012-metatrader-import.md): the account row, its
 * balance operations, and its closed and open trades as trade records, written by the same upsert as OANDA's trades (trade-upsert.ts), so that a
 * re-import of the same file writes nothing. Pure functions; trade.repository.ts writes them.
 */

/** The imported account as the import module hands it over (decimals as exact strings). */
export interface ImportedAccountInput {
  server: string;
  login: string;
  mode: Mode;
  name: string | null;
  currency: string | null;
  balance: string | null;
  equity: string | null;
  floatingPL: string | null;
  closedPL: string | null;
  margin: string | null;
  freeMargin: string | null;
  broker: string | null;
  leverage: string | null;
  /** The server clock rule the times were read with (docs/decisions/012-metatrader-import.md, "Server time"). */
  brokerTime: BrokerTimeName;
  /** The offset of a `fixed` rule; null for a named rule. */
  utcOffset: string | null;
  openTradeCount: number;
  commission: string | null;
  swap: string | null;
}

/**
 * One closed or open trade of the report as the import module hands it over: times already in UTC, ticket as the
 * report prints it. The trade id is named here (domain/imported-trade-ids.ts), never by the import. An open trade has no close
 * time; its `realizedPL` is the report's floating profit, stored as the trade's unrealized P/L.
 */
export interface ImportedTradeInput {
  /** The MT4 ticket, MT5 position id or the CSV's ticket; several trades may share one (an MT5 netting reversal). */
  ticket: string;
  symbol: string;
  instrument: string;
  /** Signed: negative for a sell. */
  units: string;
  lots: string;
  price: string;
  averageClosePrice: string | null;
  stopLossPrice: string | null;
  takeProfitPrice: string | null;
  /** RFC 3339 UTC. */
  openTime: string;
  /** null: the trade is still open at the report's end. */
  closeTime: string | null;
  /** The open time as the server printed it (`YYYY-MM-DDTHH:mm:ss`, no zone): what a re-import matches it by. */
  serverOpenTime: string;
  realizedPL: string;
  commission: string;
  swap: string;
}

/** What an import stored: trades (closed and open) added, updated and unchanged; balance operations apart. */
export interface ImportCounts {
  accountKey: string;
  added: number;
  updated: number;
  unchanged: number;
  balanceOperations: { added: number; updated: number };
}

/** What an imported account row holds beyond OANDA's summary fields; compared like them. */
const IMPORTED_ACCOUNT_EXTRA = ['broker', 'leverage', 'utc_offset', 'broker_time'] as const;
const IMPORTED_ACCOUNT_CONTENT = [...ACCOUNT_CONTENT, ...IMPORTED_ACCOUNT_EXTRA] as const;
export type ImportedAccountContent = AccountContent & {
  broker: string | null;
  leverage: string | null;
  utc_offset: string | null;
  broker_time: string | null;
};

/** The account row's content: the report's figures where OANDA's summary has its own. */
export function importedAccountContent(a: ImportedAccountInput): ImportedAccountContent {
  return {
    mode: a.mode,
    alias: a.name,
    currency: a.currency,
    balance: a.balance,
    nav: a.equity,
    unrealized_pl: a.floatingPL,
    pl: a.closedPL,
    financing: a.swap,
    commission: a.commission,
    margin_used: a.margin,
    margin_available: a.freeMargin,
    position_value: null,
    margin_rate: null,
    margin_closeout_percent: null,
    withdrawal_limit: null,
    open_trade_count: a.openTradeCount,
    open_position_count: null,
    pending_order_count: null,
    hedging_enabled: null,
    opened_at: null,
    last_transaction_id: null,
    broker: a.broker,
    leverage: a.leverage,
    utc_offset: a.utcOffset,
    broker_time: a.brokerTime,
  };
}

export const sameImportedAccount = (
  a: Pick<BrokerAccountsTable, (typeof ACCOUNT_CONTENT)[number]> & {
    broker?: string | null;
    leverage?: string | null;
    utc_offset?: string | null;
    broker_time?: string | null;
  },
  b: ImportedAccountContent,
): boolean => IMPORTED_ACCOUNT_CONTENT.every((k) => (a[k] ?? null) === (b[k] ?? null));

/** The ticket as a number for the ordering column; a CSV's `row-<n>` ticket orders by its number. */
function ticketNumber(ticket: string): number {
  const digits = /(\d+)$/.exec(ticket)?.[1];
  const n = digits === undefined ? 0 : Number(digits);
  return Number.isSafeInteger(n) ? n : 0;
}

/** Trades turned into records per slice before the event loop gets a turn (100,000 trades take about a second). */
const SLICE = 2000;

/**
 * Every imported trade as a trade record with its id (domain/imported-trade-ids.ts), built a slice at a time so that a large
 * import never holds the event loop for long.
 */
export async function importedTradeRecords(
  trades: readonly ImportedTradeInput[],
  stored: ReadonlyMap<string, StoredOpenTime>,
  mode: Mode,
): Promise<TradeRecord[]> {
  const idOf = tradeIdNamer(trades, stored);
  const out: TradeRecord[] = [];
  for (let at = 0; at < trades.length; at += SLICE) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const t of trades.slice(at, at + SLICE)) {
      const record = importedTradeRecord(t, '', mode);
      record.trade_id = idOf(t.ticket, record.open_time, t.serverOpenTime);
      out.push(record);
    }
  }
  return out;
}

/**
 * An imported trade as a trade record: P/L is the report's profit column, financing its commission plus swap
 * (exactly), so that P/L + financing is the trade's net as for OANDA. The initial stop is the stop level the
 * report shows, which is the one the trade had at its close (the report keeps no earlier level), or for a trade
 * still open the one it had when the report was made. An open trade is OPEN with all its units, no close time and
 * the report's floating profit as unrealized P/L, as OANDA's open trades are stored.
 */
function importedTradeRecord(t: ImportedTradeInput, id: string, mode: Mode): TradeRecord {
  if (t.closeTime === null)
    return {
      ...importedTradeRecord({ ...t, closeTime: t.openTime }, id, mode),
      current_units: t.units,
      realized_pl: '0',
      unrealized_pl: t.realizedPL,
      state: 'OPEN',
      close_time: null,
      average_close_price: null,
    };
  return {
    trade_id: id,
    trade_num: ticketNumber(t.ticket),
    mode,
    instrument: t.instrument,
    price: t.price,
    initial_units: t.units,
    current_units: '0',
    realized_pl: t.realizedPL,
    unrealized_pl: null,
    financing: sumDecimals([t.commission, t.swap]),
    state: 'CLOSED',
    open_time: storedDateTime(t.openTime, `trade ${t.ticket} openTime`),
    close_time: storedDateTime(t.closeTime, `trade ${t.ticket} closeTime`),
    average_close_price: t.averageClosePrice,
    stop_loss_price: t.stopLossPrice,
    take_profit_price: t.takeProfitPrice,
    trailing_stop_distance: null,
    initial_stop_loss_price: t.stopLossPrice,
    platform: 'metatrader',
    server_open_time: t.serverOpenTime,
    symbol: t.symbol,
    lots: t.lots,
    commission: t.commission,
    swap: t.swap,
  };
}

/** A balance operation as the import module hands it over: times already converted, type and amount as printed. */
export interface ImportedBalanceOperationInput {
  /** The MT4 ticket or MT5 deal as printed; null when the report prints none (a CSV). */
  ticket: string | null;
  /** RFC 3339 UTC. */
  time: string;
  /** The broker's server time as the report prints it (`YYYY-MM-DDTHH:mm:ss`). */
  serverTime: string;
  /** As printed: 'balance', 'credit', 'bonus', … */
  type: string;
  /** Exact, signed. */
  amount: string;
  comment: string | null;
}

/** A balance operation as `balance_operations` stores it (beside the user, the account key and the stamps). */
export interface BalanceOperationRecord {
  operation_id: string;
  platform: string;
  time: string;
  server_time: string;
  type: BalanceOperationType;
  printed_type: string;
  amount: string;
  currency: string | null;
  comment: string | null;
}

/** What is compared before a balance operation is written again: all but its key and stamps. */
export const BALANCE_OPERATION_CONTENT = [
  'platform',
  'time',
  'server_time',
  'type',
  'printed_type',
  'amount',
  'currency',
  'comment',
] as const satisfies ReadonlyArray<keyof BalanceOperationRecord>;
export type BalanceOperationContent = Pick<BalanceOperationRecord, (typeof BALANCE_OPERATION_CONTENT)[number]>;

export const sameBalanceOperation = (a: BalanceOperationContent, b: BalanceOperationContent): boolean =>
  BALANCE_OPERATION_CONTENT.every((k) => (a[k] ?? null) === (b[k] ?? null));

/**
 * What an operation is (contract BALANCE_OPERATION_TYPES): MetaTrader's `balance` is a deposit when positive and a
 * withdrawal when negative (docs/reference/metatrader.md); a CSV's `deposit` and `withdrawal` say it themselves.
 */
export function balanceOperationType(printed: string, amount: string): BalanceOperationType {
  const type = printed.trim().toLowerCase();
  if (type === 'balance') return compareDecimals(amount, '0') < 0 ? 'withdrawal' : 'deposit';
  if (type === 'deposit' || type === 'withdrawal' || type === 'credit' || type === 'bonus' || type === 'correction')
    return type;
  return 'other';
}

/**
 * The stored operations of an import. The id is the ticket or deal the report prints; without one it is
 * `<printed type>@<server time>@<amount>` (type in lower case, amount without trailing zeros, so an HTML and an
 * XLSX copy of one report agree). The server time, not UTC, names it, so a re-import with another UTC offset names
 * the same operation. A base that occurs more than once in the import takes `#<n>` from its second occurrence on,
 * in file order: the same or an overlapping report names every operation as before.
 */
export function balanceOperationRecords(
  operations: readonly ImportedBalanceOperationInput[],
  currency: string | null,
): BalanceOperationRecord[] {
  const seen = new Map<string, number>();
  return operations.map((o) => {
    const ticket = o.ticket?.trim();
    const base = ticket || `${o.type.trim().toLowerCase()}@${o.serverTime}@${trimDecimal(o.amount)}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return {
      operation_id: n === 1 ? base : `${base}#${n}`,
      platform: 'metatrader',
      time: storedDateTime(o.time, `balance operation ${base} time`),
      server_time: o.serverTime,
      type: balanceOperationType(o.type, o.amount),
      printed_type: o.type,
      amount: o.amount,
      currency,
      comment: o.comment,
    };
  });
}
