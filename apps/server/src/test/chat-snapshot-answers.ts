import type {
  PerformanceAnswer,
  PerformanceRequest,
  TagComparisonAnswer,
  TradesAnswer,
  TradesSnapshot,
} from '../modules/chat/tools/chat-data';
import {
  compareTagsOf,
  EMPTY_JOURNAL,
  type JournalSnapshot,
  type TagComparisonRequest,
} from '../modules/chat/tools/journal';
import { performance } from '../modules/chat/tools/performance';
import { queryTrades, type TradeQuestion } from '../modules/chat/tools/trade-query';

/** The chat tools' answers from trades held in memory, for the chat fixtures (chat-fixture-data.ts). */
export function tradesFromSnapshot(
  snapshot: TradesSnapshot,
  filter: TradeQuestion,
  journal: JournalSnapshot = EMPTY_JOURNAL,
): TradesAnswer {
  return {
    result: queryTrades(snapshot.trades, filter, snapshot.currencies, journal.tagsByTrade),
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
