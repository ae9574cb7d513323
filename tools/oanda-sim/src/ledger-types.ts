// In-memory records of the simulated broker. Money is in integer ten-thousandths of the account
// currency and prices in integer ticks; the wire layer turns them into OANDA's strings.

import type { InstrumentSpec } from './instruments';

/** An instant with nanosecond detail: whole milliseconds plus the sub-millisecond nanoseconds. */
export interface Stamp {
  readonly ms: number;
  readonly ns: number;
}

export type OrderKind = 'TAKE_PROFIT' | 'STOP_LOSS' | 'TRAILING_STOP_LOSS';

export interface DependentOrder {
  readonly id: number;
  readonly kind: OrderKind;
  readonly tradeId: number;
  /** TP/SL: trigger price in ticks. TSL: distance in ticks. */
  readonly price: number;
  readonly created: Stamp;
  state: 'PENDING' | 'FILLED' | 'CANCELLED';
  /** TSL only: the current (or, once filled, the final) trailing stop value in ticks. */
  trailingValue?: number;
  fillTxId?: number;
  fillTime?: Stamp;
  cancelTxId?: number;
  cancelTime?: Stamp;
  replacesOrderId?: number;
  replacedByOrderId?: number;
}

export interface ClientExtensions {
  readonly id: string;
  readonly tag: string;
  readonly comment: string;
}

export interface TradeRec {
  id: number;
  readonly spec: InstrumentSpec;
  readonly initialUnits: number;
  currentUnits: number;
  /** Fill price, ticks. */
  readonly price: number;
  readonly open: Stamp;
  readonly initialMargin: number;
  realizedPL: number;
  financing: number;
  readonly closingTxIds: number[];
  /** Σ units closed and Σ units × close price (ticks), for averageClosePrice. */
  closedUnits: number;
  closedValue: number;
  state: 'OPEN' | 'CLOSED';
  closeTime?: Stamp;
  tp?: DependentOrder;
  sl?: DependentOrder;
  tsl?: DependentOrder;
  readonly clientExtensions?: ClientExtensions;
  /** Best mid seen while open, in favourable terms (dir × mid), for trailing stops. */
  trailBest?: number;
  /** Last transaction that touched the trade (open, reduce, close, order change). */
  lastTxId: number;
}

export type FillReason =
  'MARKET_ORDER' | 'MARKET_ORDER_TRADE_CLOSE' | 'TAKE_PROFIT_ORDER' | 'STOP_LOSS_ORDER' | 'TRAILING_STOP_LOSS_ORDER';

interface TxBase {
  readonly id: number;
  readonly batchId: number;
  readonly time: Stamp;
  readonly requestId?: string;
}

export type TxRec =
  | (TxBase & { readonly type: 'CREATE' })
  | (TxBase & { readonly type: 'CLIENT_CONFIGURE' })
  | (TxBase & {
      readonly type: 'TRANSFER_FUNDS';
      readonly amount: number;
      readonly balance: number;
      readonly comment?: string;
    })
  | (TxBase & {
      readonly type: 'MARKET_ORDER';
      readonly trade: TradeRec;
      readonly units: number;
      readonly reason: 'CLIENT_ORDER' | 'TRADE_CLOSE';
      /** TRADE_CLOSE: units closed, or 'ALL'. */
      readonly closeUnits?: number | 'ALL';
      readonly onFill?: { tp?: number; sl?: number; tslDistance?: number };
    })
  | (TxBase & {
      readonly type: 'ORDER_FILL';
      readonly trade: TradeRec;
      readonly orderId: number;
      /** Signed units of the fill. */
      readonly units: number;
      readonly price: number;
      readonly pl: number;
      readonly balance: number;
      readonly reason: FillReason;
      readonly effect: 'OPEN' | 'REDUCE' | 'CLOSE';
      readonly halfSpreadCost: number;
      readonly conversion: number;
    })
  | (TxBase & {
      readonly type: 'TAKE_PROFIT_ORDER' | 'STOP_LOSS_ORDER' | 'TRAILING_STOP_LOSS_ORDER';
      readonly order: DependentOrder;
      readonly trade: TradeRec;
      /** ON_FILL: created by the opening order's …OnFill; CLIENT_ORDER: added later; REPLACEMENT: replaces one. */
      readonly reason: 'ON_FILL' | 'CLIENT_ORDER' | 'REPLACEMENT';
      readonly fillTxId?: number;
    })
  | (TxBase & {
      readonly type: 'ORDER_CANCEL';
      readonly order: DependentOrder;
      readonly reason: 'LINKED_TRADE_CLOSED' | 'CLIENT_REQUEST_REPLACED';
      readonly replacedById?: number;
    })
  | (TxBase & {
      readonly type: 'DAILY_FINANCING';
      readonly total: number;
      readonly balance: number;
      readonly positions: readonly { readonly instrument: string; readonly amount: number }[];
    });

export interface AccountRec {
  readonly index: number;
  readonly id: string;
  readonly alias: string;
  readonly currency: string;
  readonly userId: number;
  readonly marginRate: number;
  readonly created: Stamp;
  readonly deposit: number;
  balance: number;
  pl: number;
  financing: number;
  /** Every transaction, index = id − 1 (ids are contiguous from 1). */
  readonly txs: TxRec[];
  /** Every trade, ascending id. */
  readonly trades: TradeRec[];
  readonly tradesById: Map<number, TradeRec>;
  readonly tradesByClientId: Map<string, TradeRec>;
  lastOrderFill?: Stamp;
}
