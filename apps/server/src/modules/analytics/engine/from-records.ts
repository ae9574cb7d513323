/**
 * Maps the stored OANDA records (contract shapes, decimal strings) to the engine's inputs.
 * Amounts are read as the assistant reads them (domain/money.ts: exact minor units), so the
 * engine's scaling back to integer ten-thousandths gives the very same integers and sums match the
 * broker and the assistant to the last digit (docs/decisions/003-broker-numbers.md).
 */
import type { AccountItem, TradeItem } from '@pipsense/contract';
import type { EngineAccount, EngineTrade } from './types';
import { engineTrade } from './trade-record';
import { fromMinorUnits, minorUnitsOf } from '../../../domain/money';
import { hasInitialRisk, rMultipleOf } from '../../../domain/risk';
import { instantOf } from '../../../domain/calendar';

function decimal(value: string | null): number {
  return value === null ? 0 : Number(value);
}

/** An amount of account currency; null (not booked yet) is 0. */
function money(value: string | null): number {
  return value === null ? 0 : fromMinorUnits(minorUnitsOf(value));
}

function optionalDecimal(value: string | null): number | null {
  return value === null ? null : Number(value);
}

function tradeState(state: string): EngineTrade['state'] {
  return state === 'CLOSED' || state === 'CLOSE_WHEN_TRADEABLE' ? state : 'OPEN';
}

/** The fields of a stored trade the engine reads (the Overview reads only these columns, overview-trades.ts). */
export type EngineTradeFields = Pick<
  TradeItem,
  | 'accountId'
  | 'tradeId'
  | 'instrument'
  | 'price'
  | 'initialUnits'
  | 'currentUnits'
  | 'realizedPL'
  | 'unrealizedPL'
  | 'financing'
  | 'state'
  | 'openTime'
  | 'closeTime'
  | 'averageClosePrice'
  | 'stopLossPrice'
  | 'takeProfitPrice'
  | 'trailingStopDistance'
>;

/**
 * `initialStopLossPrice`: the first stop-loss the sync kept for the trade (trades.initial_stop_loss_price); without
 * it the trade has "no initial stop" and no R. The R-multiple is domain/risk.ts's, not worked out here.
 */
export function engineTradeFromItem(item: EngineTradeFields, initialStopLossPrice: string | null = null): EngineTrade {
  const openPrice = optionalDecimal(item.price);
  const risk = {
    instrument: item.instrument,
    initialUnits: item.initialUnits,
    price: item.price,
    averageClosePrice: item.averageClosePrice,
    initialStopLossPrice,
  };
  return engineTrade({
    accountId: item.accountId,
    tradeId: item.tradeId,
    instrument: item.instrument,
    units: decimal(item.initialUnits),
    currentUnits: decimal(item.currentUnits),
    openPrice: openPrice ?? 0,
    // Without an open price there are no pips to count; a null close price makes the engine skip them.
    closePrice: openPrice === null ? null : optionalDecimal(item.averageClosePrice),
    openTime: instantOf(item.openTime),
    closeTime: item.closeTime === null ? null : instantOf(item.closeTime),
    state: tradeState(item.state),
    realizedPL: money(item.realizedPL),
    unrealizedPL: money(item.unrealizedPL),
    financing: money(item.financing),
    stopLossPrice: optionalDecimal(item.stopLossPrice),
    takeProfitPrice: optionalDecimal(item.takeProfitPrice),
    trailingStopDistance: optionalDecimal(item.trailingStopDistance),
    initialStop: hasInitialRisk(risk),
    rMultiple: item.state === 'CLOSED' ? rMultipleOf(risk) : null,
  });
}

/** Accounts not summarised yet (null fields) count as empty; an unknown currency is ''. */
export function engineAccountFromItem(item: AccountItem): EngineAccount {
  return {
    accountId: item.oandaAccountId,
    currency: item.currency ?? '',
    balance: money(item.balance),
    nav: money(item.NAV),
    unrealizedPL: money(item.unrealizedPL),
    marginUsed: money(item.marginUsed),
    marginAvailable: money(item.marginAvailable),
    positionValue: money(item.positionValue),
    openTradeCount: item.openTradeCount ?? 0,
    openPositionCount: item.openPositionCount ?? 0,
  };
}
