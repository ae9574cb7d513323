import type {
  PerformanceAnswer,
  PerformanceRequest,
  TagComparisonAnswer,
  TradesAnswer,
  TradesSnapshot,
} from './chat-data';
import { compareTagsOf, EMPTY_JOURNAL, hasAnyTag, type JournalSnapshot, type TagComparisonRequest } from './journal';
import { performance } from './performance';
import { queryTrades, type TradeFilter } from './trade-query';

/** Answers from trades held in memory (fixtures, or a source without a query engine). */
export function tradesFromSnapshot(
  snapshot: TradesSnapshot,
  filter: TradeFilter,
  journal: JournalSnapshot = EMPTY_JOURNAL,
): TradesAnswer {
  const ids = filter.tagIds ?? [];
  const trades = ids.length > 0 ? snapshot.trades.filter((t) => hasAnyTag(journal, t, ids)) : snapshot.trades;
  return {
    result: queryTrades(trades, filter, snapshot.currencies),
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

export function tagsFromSnapshot(
  snapshot: TradesSnapshot,
  request: TagComparisonRequest,
  journal: JournalSnapshot,
): TagComparisonAnswer {
  return {
    result: compareTagsOf(snapshot.trades, journal, request),
    openOrigin: snapshot.openOrigin,
    historySyncedAt: snapshot.historySyncedAt,
    empty: snapshot.trades.length === 0,
  };
}
