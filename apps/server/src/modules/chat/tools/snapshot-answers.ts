import type { PerformanceAnswer, PerformanceRequest, TradesAnswer, TradesSnapshot } from './chat-data';
import { performance } from './performance';
import { queryTrades, type TradeFilter } from './trade-query';

/** Answers from trades held in memory (fixtures, or a source without a query engine). */
export function tradesFromSnapshot(snapshot: TradesSnapshot, filter: TradeFilter): TradesAnswer {
  return {
    result: queryTrades(snapshot.trades, filter, snapshot.currencies),
    openOrigin: snapshot.openOrigin,
    historySyncedAt: snapshot.historySyncedAt,
    empty: snapshot.trades.length === 0,
  };
}

export function performanceFromSnapshot(snapshot: TradesSnapshot, request: PerformanceRequest): PerformanceAnswer {
  return {
    result: performance(snapshot.trades, request.period, snapshot.currencies, request.instrument),
    openOrigin: snapshot.openOrigin,
    historySyncedAt: snapshot.historySyncedAt,
    empty: snapshot.trades.length === 0,
  };
}
