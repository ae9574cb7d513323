// The JSON shapes the simulator sends (a subset of OANDA v20's definitions, as in the reference
// fixtures). Every decimal is a string, every id a digit string, every time RFC3339 with 9
// fractional digits (or UNIX seconds with `Accept-Datetime-Format: UNIX`).

export interface WireClientExtensions {
  id: string;
  tag: string;
  comment: string;
}

export interface WireDependentOrder {
  id: string;
  createTime: string;
  type: 'TAKE_PROFIT' | 'STOP_LOSS' | 'TRAILING_STOP_LOSS';
  tradeID: string;
  clientTradeID?: string;
  /** TAKE_PROFIT / STOP_LOSS. */
  price?: string;
  /** TRAILING_STOP_LOSS. */
  distance?: string;
  timeInForce: 'GTC';
  triggerCondition: 'DEFAULT';
  trailingStopValue?: string;
  replacesOrderID?: string;
  fillingTransactionID?: string;
  filledTime?: string;
  tradeClosedIDs?: string[];
  cancellingTransactionID?: string;
  cancelledTime?: string;
  replacedByOrderID?: string;
  state: 'PENDING' | 'FILLED' | 'CANCELLED';
}

export interface WireTrade {
  id: string;
  instrument: string;
  price: string;
  openTime: string;
  initialUnits: string;
  initialMarginRequired: string;
  state: 'OPEN' | 'CLOSED';
  currentUnits: string;
  realizedPL: string;
  closingTransactionIDs?: string[];
  financing: string;
  dividendAdjustment: string;
  /** Open trades only. */
  unrealizedPL?: string;
  /** Open trades only. */
  marginUsed?: string;
  /** Closed trades only. */
  closeTime?: string;
  /** Closed or partially closed trades. */
  averageClosePrice?: string;
  clientExtensions?: WireClientExtensions;
  takeProfitOrder?: WireDependentOrder;
  stopLossOrder?: WireDependentOrder;
  trailingStopLossOrder?: WireDependentOrder;
}

export interface WireAccountSummary {
  id: string;
  alias: string;
  currency: string;
  createdByUserID: number;
  createdTime: string;
  guaranteedStopLossOrderMode: 'DISABLED';
  resettablePLTime: string;
  marginRate: string;
  openTradeCount: number;
  openPositionCount: number;
  pendingOrderCount: number;
  hedgingEnabled: boolean;
  unrealizedPL: string;
  NAV: string;
  marginUsed: string;
  marginAvailable: string;
  positionValue: string;
  marginCloseoutUnrealizedPL: string;
  marginCloseoutNAV: string;
  marginCloseoutMarginUsed: string;
  marginCloseoutPercent: string;
  marginCloseoutPositionValue: string;
  withdrawalLimit: string;
  marginCallMarginUsed: string;
  marginCallPercent: string;
  balance: string;
  pl: string;
  resettablePL: string;
  financing: string;
  commission: string;
  dividendAdjustment: string;
  guaranteedExecutionFees: string;
  lastTransactionID: string;
  lastOrderFillTimestamp?: string;
}

export interface WireCandleData {
  o: string;
  h: string;
  l: string;
  c: string;
}

export interface WireCandle {
  complete: boolean;
  volume: number;
  time: string;
  bid?: WireCandleData;
  mid?: WireCandleData;
  ask?: WireCandleData;
}

export interface WireError {
  errorMessage: string;
  errorCode?: string;
  lastTransactionID?: string;
}
