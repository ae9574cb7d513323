import { idNumber, normaliseId } from '../../integrations/oanda/ids';
import { normaliseDateTime } from '../../integrations/oanda/datetime';
import type { WireAccountTransaction, WireTradeReduce } from '../../integrations/oanda/wire-schemas';
import { BrokerDataError, type FirstStop } from './broker-data';

/*
 * The transaction store of an OANDA account (docs/decisions/022-transaction-store.md): which of OANDA's
 * transactions are kept, as which row, and which of them are cash flows.
 */

/** The cash flows: transactions that move the balance apart from a trade's fill. */
const CASH_FLOW_TYPES = ['TRANSFER_FUNDS', 'DAILY_FINANCING', 'DIVIDEND_ADJUSTMENT'] as const;

/** The orders that set, replace or take over a trade's stop-loss, take-profit or trailing stop. */
export const DEPENDENT_ORDER_TYPES = [
  'STOP_LOSS_ORDER',
  'GUARANTEED_STOP_LOSS_ORDER',
  'TAKE_PROFIT_ORDER',
  'TRAILING_STOP_LOSS_ORDER',
] as const;

/** The stop-loss orders, whose first per trade is the trade's initial stop (docs/decisions/010-…). */
export const STOP_LOSS_ORDER_TYPES = ['STOP_LOSS_ORDER', 'GUARANTEED_STOP_LOSS_ORDER'] as const;

/** The types stored: ORDER_CANCEL only for a dependent order (storedTransactions). */
export const STORED_TRANSACTION_TYPES = [...CASH_FLOW_TYPES, ...DEPENDENT_ORDER_TYPES, 'ORDER_CANCEL'] as const;

/**
 * What the sync asks OANDA for: the idrange `type` filter, the stored types by their TransactionFilter names
 * (docs/reference/oanda.md, Account changes and transactions), and ORDER_FILL for the fills that reduce or close a
 * trade (tradeReductionsOf), so that the market orders and other requests are not sent at all. OANDA answers 400 to
 * a name outside that list, and DIVIDEND_ADJUSTMENT is not in it: a dividend adjustment is not read
 * (docs/decisions/022-transaction-store.md).
 */
export const TRANSACTION_FILTER = [
  'TRANSFER_FUNDS',
  'DAILY_FINANCING',
  ...DEPENDENT_ORDER_TYPES,
  'ORDER_CANCEL',
  'ORDER_FILL',
] as const satisfies ReadonlyArray<(typeof STORED_TRANSACTION_TYPES)[number] | 'ORDER_FILL'>;

/** A stored transaction (table account_transactions, migration 024). */
export interface AccountTransactionRecord {
  transaction_num: number;
  type: string;
  time: string;
  amount: string | null;
  balance: string | null;
  trade_id: string | null;
  order_id: string | null;
  replaces_order_id: string | null;
  price: string | null;
  distance: string | null;
  reason: string | null;
  comment: string | null;
}

const isDependentOrder = (type: string | null | undefined): boolean =>
  (DEPENDENT_ORDER_TYPES as readonly string[]).includes(type ?? '');

/** The balance change a cash flow carries, by its type's field. */
function cashAmount(tx: WireAccountTransaction): string | null {
  if (tx.type === 'TRANSFER_FUNDS') return tx.amount ?? null;
  if (tx.type === 'DAILY_FINANCING') return tx.financing ?? null;
  if (tx.type === 'DIVIDEND_ADJUSTMENT') return tx.dividendAdjustment ?? null;
  return null;
}

/**
 * One idrange answer as rows. An ORDER_CANCEL is kept when the order it cancelled is a dependent order, of this
 * answer (`orders` collects them) or stored before (`storedOrders`: the trade of each such order id asked for);
 * its row carries that trade. Other types OANDA might add to the answer are left out.
 */
export async function storedTransactions(
  transactions: readonly WireAccountTransaction[],
  storedOrders: (orderIds: string[]) => Promise<Map<string, string | null>>,
): Promise<AccountTransactionRecord[]> {
  const orders = new Map<string, string | null>();
  for (const tx of transactions)
    if (isDependentOrder(tx.type)) orders.set(normaliseId(tx.id), tx.tradeID ? normaliseId(tx.tradeID) : null);
  const asked = transactions
    .filter((tx) => tx.type === 'ORDER_CANCEL' && tx.orderID && !orders.has(normaliseId(tx.orderID)))
    .map((tx) => normaliseId(tx.orderID!));
  const earlier = asked.length > 0 ? await storedOrders(asked) : new Map<string, string | null>();
  const records: AccountTransactionRecord[] = [];
  for (const tx of transactions) {
    const id = normaliseId(tx.id);
    const type = tx.type ?? '';
    let tradeId = tx.tradeID ? normaliseId(tx.tradeID) : null;
    let orderId: string | null = null;
    if (type === 'ORDER_CANCEL') {
      orderId = tx.orderID ? normaliseId(tx.orderID) : null;
      if (orderId === null || !(orders.has(orderId) || earlier.has(orderId))) continue;
      tradeId = orders.get(orderId) ?? earlier.get(orderId) ?? null;
    } else if (!(STORED_TRANSACTION_TYPES as readonly string[]).includes(type)) continue;
    const time = normaliseDateTime(tx.time);
    if (!time) throw new BrokerDataError(`transaction ${id} (${type}) has no time: ${JSON.stringify(tx.time)}`);
    records.push({
      transaction_num: idNumber(id),
      type,
      time,
      amount: cashAmount(tx),
      balance: tx.accountBalance ?? null,
      trade_id: tradeId,
      order_id: orderId,
      replaces_order_id: tx.replacesOrderID ? normaliseId(tx.replacesOrderID) : null,
      price: tx.price ?? null,
      distance: tx.distance ?? null,
      // TRANSFER_FUNDS says why the money moved in `fundingReason`, the others in `reason`.
      reason: tx.fundingReason ?? tx.reason ?? null,
      comment: tx.comment ?? null,
    });
  }
  return records;
}

/** A trade an ORDER_FILL reduced or closed (table trade_reductions, migration 033). */
export interface TradeReductionRecord {
  transaction_num: number;
  trade_id: string;
  /** 'reduce': a partial close (the fill's tradeReduced); 'close': the fill closed the trade (one of tradesClosed). */
  kind: 'reduce' | 'close';
  time: string;
  units: string;
  price: string | null;
  realized_pl: string | null;
  financing: string | null;
}

/**
 * The trades the ORDER_FILLs of one idrange answer reduced or closed, one record per fill and trade
 * (docs/decisions/022-transaction-store.md, Fills that reduce a trade). A fill that only opens a trade gives none.
 */
export function tradeReductionsOf(transactions: readonly WireAccountTransaction[]): TradeReductionRecord[] {
  const records: TradeReductionRecord[] = [];
  for (const tx of transactions) {
    if (tx.type !== 'ORDER_FILL') continue;
    const effects: Array<readonly [TradeReductionRecord['kind'], WireTradeReduce]> = [
      ...(tx.tradeReduced ? [['reduce', tx.tradeReduced] as const] : []),
      ...(tx.tradesClosed ?? []).map((c) => ['close', c] as const),
    ];
    if (effects.length === 0) continue;
    const id = normaliseId(tx.id);
    const time = normaliseDateTime(tx.time);
    if (!time) throw new BrokerDataError(`transaction ${id} (ORDER_FILL) has no time: ${JSON.stringify(tx.time)}`);
    for (const [kind, effect] of effects)
      records.push({
        transaction_num: idNumber(id),
        trade_id: normaliseId(effect.tradeID),
        kind,
        time,
        units: effect.units,
        // A TradeReduce without its own price was filled at the fill's.
        price: effect.price ?? tx.price ?? null,
        realized_pl: effect.realizedPL ?? null,
        financing: effect.financing ?? null,
      });
  }
  return records;
}

/** The first stop-loss order per trade among stored rows (any order; the lowest id wins). */
export function firstStopsOf(
  rows: ReadonlyArray<{
    transaction_num: number | string;
    trade_id: string | null;
    price: string | null;
    distance: string | null;
  }>,
): Map<string, FirstStop> {
  const first = new Map<string, FirstStop>();
  for (const row of rows) {
    if (!row.trade_id || (row.price === null && row.distance === null)) continue;
    const known = first.get(row.trade_id);
    if (known && Number(known.transactionId) < Number(row.transaction_num)) continue;
    first.set(row.trade_id, {
      transactionId: String(row.transaction_num),
      price: row.price,
      distance: row.distance,
    });
  }
  return first;
}

/** The API's cash-flow types (contract CASH_FLOW_TYPES). */
export type CashFlowKind = 'deposit' | 'withdrawal' | 'credit' | 'financing' | 'fee' | 'adjustment';

/**
 * A stored OANDA cash flow's type: a transfer is a deposit or a withdrawal by its sign, unless OANDA booked it as
 * an adjustment (fundingReason ADJUSTMENT); daily financing is financing; a dividend adjustment an adjustment.
 * Nothing here is a `fee`: no fundingReason names one (CLIENT_FUNDING, ACCOUNT_TRANSFER, DIVISION_MIGRATION,
 * SITE_MIGRATION, ADJUSTMENT), v20 has no fee transaction, and an ORDER_FILL's commission and guaranteed execution
 * fee belong to its trade (docs/decisions/022-transaction-store.md, What a cash flow is).
 */
export function oandaCashFlowKind(type: string, reason: string | null, amount: string): CashFlowKind {
  if (type === 'DAILY_FINANCING') return 'financing';
  if (type === 'TRANSFER_FUNDS' && reason !== 'ADJUSTMENT') return amount.startsWith('-') ? 'withdrawal' : 'deposit';
  return 'adjustment';
}

/**
 * The MetaTrader 5 deal types that are a charge of the broker booked apart from a trade, as the report prints them
 * (MQL5 ENUM_DEAL_TYPE: DEAL_TYPE_CHARGE, DEAL_TYPE_COMMISSION and its daily and monthly kinds; the long names are
 * MQL5's descriptions of the same types). An agent's commission (an introducing broker's income), interest, a tax
 * and a correction are not among them.
 */
const METATRADER_FEE_TYPES: ReadonlySet<string> = new Set([
  'charge',
  'additional charge',
  'commission',
  'additional commission',
  'daily commission',
  'monthly commission',
]);

/**
 * An imported balance operation's type (BalanceOperationType, and the type as the report printed it): deposits and
 * withdrawals by their sign (a "balance" line of either sign is stored as one or the other), credit as credit, a
 * broker's charge or commission booked apart from a trade as a fee, bonus, correction and anything else the report
 * prints as an adjustment.
 */
export function metatraderCashFlowKind(type: string, printedType: string | null, amount: string): CashFlowKind {
  if (type === 'deposit' || type === 'withdrawal') return amount.startsWith('-') ? 'withdrawal' : 'deposit';
  if (type === 'credit') return 'credit';
  if (type === 'other' && METATRADER_FEE_TYPES.has((printedType ?? '').trim().toLowerCase().replace(/\s+/g, ' ')))
    return 'fee';
  return 'adjustment';
}

export { CASH_FLOW_TYPES as OANDA_CASH_FLOW_TYPES };
