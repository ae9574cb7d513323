/** Analytics' public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createAnalyticsService, tagFactsOf, type TradeJournal } from './analytics.service';
export { analyticsRoutes } from './analytics.routes';
export { createInsightsRepository } from './insights.repository';
export { createSnapshotRepository } from './overview-snapshots.repository';
export { createOverviewTrades } from './overview-trades';
export { analyticsUserData, type AnalyticsDb, type AnalyticsTables } from './tables';
// The Overview's sessions and median, read by the coach's facts (docs/coach.md, Facts).
export { SESSION_NAMES, sessionIndexAt } from './engine/sessions';
export { median } from './engine/stats';
/** The coach's behaviour patterns (engine/METRICS.md, Behaviour patterns): pure detectors the coach module runs. */
export {
  detectPatternColumns,
  detectPatterns,
  patternDefinition,
  type PatternColumns,
  type PatternTrade,
} from './engine/patterns';
