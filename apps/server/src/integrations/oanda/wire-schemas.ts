import { z } from 'zod';

/*
 * The v20 wire format as OANDA sends it. Every field is optional in OANDA's own definitions, so only what a
 * record cannot exist without is required; unknown fields are dropped; decimals stay strings, digit for digit.
 */

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * DecimalNumber / PriceValue / AccountUnits: a string, kept digit for digit. A bare JSON number is refused: it may
 * already have lost digits in transit, and OANDA never sends one.
 */
const wireDecimal = z.string().regex(DECIMAL, 'expected a decimal string');

/** TradeID / OrderID / TransactionID: digit strings. */
const wireId = z.string().regex(/^\d+$/, 'expected a digit-string id');

/** Counts are JSON integers; tolerate them arriving as digit strings. */
const wireInt = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

/** DateTime: RFC 3339 (we ask for it) or OANDA's "0" for never; normalised later. */
const wireTime = z.string();

const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

const wireDependentOrder = z.object({
  id: opt(wireId),
  state: opt(z.string()),
  price: opt(wireDecimal),
  distance: opt(wireDecimal),
  trailingStopValue: opt(wireDecimal),
  cancelledTime: opt(wireTime),
});

const wireTrade = z.object({
  id: wireId,
  instrument: opt(z.string()),
  price: opt(wireDecimal),
  openTime: opt(wireTime),
  state: opt(z.string()),
  initialUnits: opt(wireDecimal),
  initialMarginRequired: opt(wireDecimal),
  currentUnits: opt(wireDecimal),
  realizedPL: opt(wireDecimal),
  unrealizedPL: opt(wireDecimal),
  marginUsed: opt(wireDecimal),
  averageClosePrice: opt(wireDecimal),
  closingTransactionIDs: opt(z.array(wireId)),
  financing: opt(wireDecimal),
  dividendAdjustment: opt(wireDecimal),
  closeTime: opt(wireTime),
  clientExtensions: opt(z.object({ id: opt(z.string()), tag: opt(z.string()), comment: opt(z.string()) })),
  takeProfitOrder: opt(wireDependentOrder),
  stopLossOrder: opt(wireDependentOrder),
  trailingStopLossOrder: opt(wireDependentOrder),
});
export type WireTrade = z.infer<typeof wireTrade>;

/** TradeSummary (account details, /changes): the same scalars, dependent orders only by id. */
const wireTradeSummary = wireTrade
  .omit({ takeProfitOrder: true, stopLossOrder: true, trailingStopLossOrder: true })
  .extend({ takeProfitOrderID: opt(wireId), stopLossOrderID: opt(wireId), trailingStopLossOrderID: opt(wireId) });

export const tradesResponse = z.object({
  trades: z.array(wireTrade),
  lastTransactionID: opt(wireId),
});

export const tradeResponse = z.object({ trade: wireTrade, lastTransactionID: opt(wireId) });

export const accountsResponse = z.object({
  accounts: z.array(z.object({ id: z.string().min(1), mt4AccountID: opt(wireInt), tags: opt(z.array(z.string())) })),
});
export type AccountsResponse = z.infer<typeof accountsResponse>;

const wireAccountSummary = z.object({
  id: z.string().min(1),
  alias: opt(z.string()),
  currency: opt(z.string()),
  balance: opt(wireDecimal),
  createdByUserID: opt(wireInt),
  createdTime: opt(wireTime),
  guaranteedStopLossOrderMode: opt(z.string()),
  pl: opt(wireDecimal),
  resettablePL: opt(wireDecimal),
  resettablePLTime: opt(wireTime),
  financing: opt(wireDecimal),
  commission: opt(wireDecimal),
  dividendAdjustment: opt(wireDecimal),
  guaranteedExecutionFees: opt(wireDecimal),
  marginRate: opt(wireDecimal),
  marginCallEnterTime: opt(wireTime),
  marginCallExtensionCount: opt(wireInt),
  lastMarginCallExtensionTime: opt(wireTime),
  openTradeCount: opt(wireInt),
  openPositionCount: opt(wireInt),
  pendingOrderCount: opt(wireInt),
  hedgingEnabled: opt(z.boolean()),
  lastOrderFillTimestamp: opt(wireTime),
  unrealizedPL: opt(wireDecimal),
  NAV: opt(wireDecimal),
  marginUsed: opt(wireDecimal),
  marginAvailable: opt(wireDecimal),
  positionValue: opt(wireDecimal),
  marginCloseoutUnrealizedPL: opt(wireDecimal),
  marginCloseoutNAV: opt(wireDecimal),
  marginCloseoutMarginUsed: opt(wireDecimal),
  marginCloseoutPercent: opt(wireDecimal),
  marginCloseoutPositionValue: opt(wireDecimal),
  withdrawalLimit: opt(wireDecimal),
  marginCallMarginUsed: opt(wireDecimal),
  marginCallPercent: opt(wireDecimal),
  lastTransactionID: opt(wireId),
});
export type WireAccountSummary = z.infer<typeof wireAccountSummary>;

export const accountSummaryResponse = z.object({ account: wireAccountSummary, lastTransactionID: opt(wireId) });
export type AccountSummaryResponse = z.infer<typeof accountSummaryResponse>;

/** Orders in /changes are polymorphic; keep what ties them to a trade and their level. */
const wireChangedOrder = z.object({
  id: opt(wireId),
  type: opt(z.string()),
  state: opt(z.string()),
  tradeID: opt(wireId),
  price: opt(wireDecimal),
  distance: opt(wireDecimal),
});

const wireTransaction = z.object({ id: opt(wireId), type: opt(z.string()), time: opt(wireTime) });

export const accountChangesResponse = z.object({
  changes: z.object({
    ordersCreated: opt(z.array(wireChangedOrder)),
    ordersCancelled: opt(z.array(wireChangedOrder)),
    ordersFilled: opt(z.array(wireChangedOrder)),
    ordersTriggered: opt(z.array(wireChangedOrder)),
    tradesOpened: opt(z.array(wireTradeSummary)),
    tradesReduced: opt(z.array(wireTradeSummary)),
    tradesClosed: opt(z.array(wireTradeSummary)),
    transactions: opt(z.array(wireTransaction)),
  }),
  state: opt(
    z.object({
      unrealizedPL: opt(wireDecimal),
      NAV: opt(wireDecimal),
      marginUsed: opt(wireDecimal),
      marginAvailable: opt(wireDecimal),
      positionValue: opt(wireDecimal),
      withdrawalLimit: opt(wireDecimal),
      trades: opt(z.array(z.object({ id: wireId, unrealizedPL: opt(wireDecimal), marginUsed: opt(wireDecimal) }))),
    }),
  ),
  lastTransactionID: wireId,
});
export type AccountChangesResponse = z.infer<typeof accountChangesResponse>;

/**
 * The transactions the transaction store keeps (docs/decisions/022-transaction-store.md): cash flows
 * (TRANSFER_FUNDS `amount`, DAILY_FINANCING `financing`, DIVIDEND_ADJUSTMENT `dividendAdjustment`, each with the
 * `accountBalance` after it) and the orders of a trade's stop-loss, take-profit and trailing stop (`tradeID`,
 * `price` or `distance`, `replacesOrderID`; ORDER_CANCEL: `orderID`), and the ORDER_FILLs' TradeReduce of each trade
 * they reduced (`tradeReduced`) or closed (`tradesClosed`). Other fields are dropped.
 */
const wireTradeReduce = z.object({
  tradeID: wireId,
  units: wireDecimal,
  price: opt(wireDecimal),
  realizedPL: opt(wireDecimal),
  financing: opt(wireDecimal),
});
export type WireTradeReduce = z.infer<typeof wireTradeReduce>;
const wireAccountTransaction = z.object({
  id: wireId,
  type: opt(z.string()),
  time: opt(wireTime),
  amount: opt(wireDecimal),
  financing: opt(wireDecimal),
  dividendAdjustment: opt(wireDecimal),
  accountBalance: opt(wireDecimal),
  fundingReason: opt(z.string()),
  comment: opt(z.string()),
  tradeID: opt(wireId),
  orderID: opt(wireId),
  replacesOrderID: opt(wireId),
  price: opt(wireDecimal),
  distance: opt(wireDecimal),
  reason: opt(z.string()),
  tradeReduced: opt(wireTradeReduce),
  tradesClosed: opt(z.array(wireTradeReduce)),
});
export type WireAccountTransaction = z.infer<typeof wireAccountTransaction>;

/** GET …/transactions/idrange. */
export const accountTransactionsResponse = z.object({
  transactions: z.array(wireAccountTransaction),
  lastTransactionID: opt(wireId),
});

const wireCandleData = z.object({ o: wireDecimal, h: wireDecimal, l: wireDecimal, c: wireDecimal });

export const candlesResponse = z.object({
  instrument: opt(z.string()),
  granularity: opt(z.string()),
  candles: z.array(
    z.object({
      time: wireTime,
      volume: opt(wireInt),
      complete: opt(z.boolean()),
      mid: opt(wireCandleData),
      bid: opt(wireCandleData),
      ask: opt(wireCandleData),
    }),
  ),
});
export type CandlesResponse = z.infer<typeof candlesResponse>;

/** v20 error bodies: `{ errorMessage, errorCode? }`, 404s also `lastTransactionID`. */
export const errorResponse = z.object({
  errorMessage: opt(z.string()),
  errorCode: opt(z.string()),
  lastTransactionID: opt(z.string()),
});
