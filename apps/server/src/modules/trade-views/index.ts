/**
 * The trade views: the one place that reads trades together with their accounts, their journal (notes, ratings,
 * tags), R and excursions, for every module that shows or counts trades. What other modules may import.
 */
export type { TradeSelection, TimeBounds, OutcomeTest, SelectableTrade, SelectionFacts } from './selection';
export { selectionMatcher } from './selection';
export type { TradeViewsTables } from './tables';
export { createTradeViews, TRADE_BATCH } from './trade-views';
export type { TradeViews, TradeViewsDeps, TradeListRequest, PageRequest, Paged } from './trade-views';
export { tradeViewsRoutes } from './trade-views.routes';
export { createBookRows } from './book-rows';
export type { BookRow, BookRows } from './book-rows';
export type { TradeSort, TradeFigures, StoredTradeItem } from './trade-query.repository';
