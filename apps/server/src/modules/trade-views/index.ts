/**
 * The trade views: the one place that reads trades together with their accounts, their journal (notes, ratings,
 * tags), R and excursions, for every module that shows or counts trades (docs/decisions/021-one-read-side-for-trades.md).
 * What other modules may import.
 */
export type { TradeSelection, TradeFieldReaders, ReviewFact } from './selection';
export { readsReviews, timeRange, tradeMatcher } from './selection';
export type { TradeViewsTables } from './tables';
export { NO_RULE_BREAKS, type RuleBreakIndex, type RuleBreakSource } from './rule-breaks';
export type { PatternKeys } from './pattern-keys';
export { createTradeViews } from './trade-views';
export type { TradeViews, TradeListRequest } from './trade-views';
export { tradeViewsRoutes } from './trade-views.routes';
export { createBookRows } from './book-rows';
export type { BookRow, BookRows, PatternRow } from './book-rows';
