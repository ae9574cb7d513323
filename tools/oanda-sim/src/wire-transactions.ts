// Transactions and market orders in OANDA's JSON, key for key as in the reference fixtures.

import { money } from './format';
import type { AccountRec, TxRec } from './ledger-types';
import { price, units, type WireContext } from './wire';

function conversionFactor(factor: number): string {
  return factor === 1 ? '1' : factor.toFixed(8);
}

/** The market order behind a MARKET_ORDER transaction, in its current (filled) state. */
export function marketOrderWire(
  ctx: WireContext,
  account: AccountRec,
  tx: Extract<TxRec, { type: 'MARKET_ORDER' }>,
): Record<string, unknown> {
  const fill = account.txs[tx.id];
  const out: Record<string, unknown> = {
    id: String(tx.id),
    createTime: ctx.time(tx.time),
    type: 'MARKET',
    ...marketOrderBody(tx),
  };
  const { tradeClientExtensions, ...onFill } = onFillWire(tx);
  Object.assign(out, onFill);
  if (tradeClientExtensions) out.tradeClientExtensions = tradeClientExtensions;
  if (fill?.type === 'ORDER_FILL') {
    out.fillingTransactionID = String(fill.id);
    out.filledTime = ctx.time(fill.time);
    if (fill.effect === 'OPEN') out.tradeOpenedID = String(fill.trade.id);
    else if (fill.effect === 'REDUCE') out.tradeReducedID = String(fill.trade.id);
    else out.tradeClosedIDs = [String(fill.trade.id)];
  }
  out.state = 'FILLED';
  return out;
}

function marketOrderBody(tx: Extract<TxRec, { type: 'MARKET_ORDER' }>): Record<string, unknown> {
  const spec = tx.trade.spec;
  const out: Record<string, unknown> = {
    instrument: spec.name,
    units: units(tx.units),
    timeInForce: 'FOK',
    positionFill: tx.reason === 'TRADE_CLOSE' ? 'REDUCE_ONLY' : 'DEFAULT',
  };
  if (tx.reason === 'TRADE_CLOSE') {
    out.tradeClose = {
      tradeID: String(tx.trade.id),
      units: tx.closeUnits === 'ALL' || tx.closeUnits === undefined ? 'ALL' : units(tx.closeUnits),
    };
  }
  return out;
}

function onFillWire(tx: Extract<TxRec, { type: 'MARKET_ORDER' }>): Record<string, unknown> {
  const spec = tx.trade.spec;
  const out: Record<string, unknown> = {};
  if (tx.reason !== 'CLIENT_ORDER') return out;
  if (tx.trade.clientExtensions) out.tradeClientExtensions = { ...tx.trade.clientExtensions };
  if (tx.onFill?.tp !== undefined) out.takeProfitOnFill = { price: price(spec, tx.onFill.tp), timeInForce: 'GTC' };
  if (tx.onFill?.sl !== undefined) out.stopLossOnFill = { price: price(spec, tx.onFill.sl), timeInForce: 'GTC' };
  if (tx.onFill?.tslDistance !== undefined)
    out.trailingStopLossOnFill = { distance: price(spec, tx.onFill.tslDistance), timeInForce: 'GTC' };
  return out;
}

export function transactionWire(ctx: WireContext, account: AccountRec, tx: TxRec): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: String(tx.id),
    accountID: account.id,
    userID: account.userId,
    batchID: String(tx.batchId),
  };
  if (tx.requestId) out.requestID = tx.requestId;
  out.time = ctx.time(tx.time);
  out.type = tx.type;
  switch (tx.type) {
    case 'CREATE':
      return {
        ...out,
        divisionID: 4,
        siteID: Number(account.id.slice(0, 3)),
        accountUserID: account.userId,
        accountNumber: account.index + 1,
        homeCurrency: account.currency,
      };
    case 'CLIENT_CONFIGURE':
      return { ...out, alias: account.alias, marginRate: String(account.marginRate) };
    case 'TRANSFER_FUNDS':
      return {
        ...out,
        amount: money(tx.amount),
        fundingReason: 'CLIENT_FUNDING',
        ...(tx.comment === undefined ? {} : { comment: tx.comment }),
        accountBalance: money(tx.balance),
      };
    case 'MARKET_ORDER': {
      const body = marketOrderBody(tx);
      const { tradeClose, ...rest } = body;
      return { ...out, ...rest, reason: tx.reason, ...(tradeClose ? { tradeClose } : {}), ...onFillWire(tx) };
    }
    case 'ORDER_FILL': {
      const spec = tx.trade.spec;
      const fill: Record<string, unknown> = {
        ...out,
        orderID: String(tx.orderId),
        instrument: spec.name,
        units: units(tx.units),
        price: price(spec, tx.price),
        pl: money(tx.pl),
        financing: '0.0000',
        commission: '0.0000',
        accountBalance: money(tx.balance),
      };
      const tradeEffect = {
        tradeID: String(tx.trade.id),
        units: units(tx.units),
        price: price(spec, tx.price),
      };
      if (tx.effect === 'OPEN') {
        fill.gainQuoteHomeConversionFactor = conversionFactor(tx.conversion);
        fill.lossQuoteHomeConversionFactor = conversionFactor(tx.conversion);
        fill.guaranteedExecutionFee = '0.0000';
        fill.halfSpreadCost = money(tx.halfSpreadCost);
        fill.fullVWAP = price(spec, tx.price);
        fill.reason = tx.reason;
        const opened: Record<string, unknown> = {
          ...tradeEffect,
          guaranteedExecutionFee: '0.0000',
          halfSpreadCost: money(tx.halfSpreadCost),
          initialMarginRequired: money(tx.trade.initialMargin),
        };
        if (tx.trade.clientExtensions) opened.clientExtensions = { ...tx.trade.clientExtensions };
        fill.tradeOpened = opened;
        return fill;
      }
      fill.reason = tx.reason;
      const closed = {
        ...tradeEffect,
        realizedPL: money(tx.pl),
        financing: '0.0000',
        guaranteedExecutionFee: '0.0000',
        halfSpreadCost: money(tx.halfSpreadCost),
      };
      if (tx.effect === 'REDUCE') fill.tradeReduced = closed;
      else fill.tradesClosed = [closed];
      return fill;
    }
    case 'TAKE_PROFIT_ORDER':
    case 'STOP_LOSS_ORDER':
    case 'TRAILING_STOP_LOSS_ORDER': {
      const spec = tx.trade.spec;
      // As in the reference capture, the order transaction itself carries no clientTradeID.
      const order: Record<string, unknown> = { ...out, tradeID: String(tx.trade.id) };
      if (tx.type === 'TRAILING_STOP_LOSS_ORDER') order.distance = price(spec, tx.order.price);
      else order.price = price(spec, tx.order.price);
      order.timeInForce = 'GTC';
      order.triggerCondition = 'DEFAULT';
      order.reason = tx.reason;
      if (tx.reason === 'ON_FILL' && tx.fillTxId !== undefined) order.orderFillTransactionID = String(tx.fillTxId);
      if (tx.order.replacesOrderId !== undefined) order.replacesOrderID = String(tx.order.replacesOrderId);
      return order;
    }
    case 'ORDER_CANCEL':
      return {
        ...out,
        orderID: String(tx.order.id),
        ...(tx.replacedById !== undefined ? { replacedByOrderID: String(tx.replacedById) } : {}),
        reason: tx.reason,
      };
    case 'DAILY_FINANCING':
      return {
        ...out,
        financing: money(tx.total),
        accountBalance: money(tx.balance),
        accountFinancingMode: 'DAILY',
        positionFinancings: tx.positions.map((p) => ({ instrument: p.instrument, financing: money(p.amount) })),
      };
  }
}
