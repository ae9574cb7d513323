export type * from './types';
export { computeMetrics } from './compute-metrics';
export { buildInsights, builtinStructuredInsights } from './insights';
export { insightFacts, insightFactsFrom, type InsightFacts } from './insight-facts';
export {
  insightsSchema,
  toInsightCards,
  INSIGHTS_INSTRUCTIONS,
  type StructuredInsights,
  type InsightPoint,
} from './insights-schema';
export { findUngroundedNumbers, insightTexts } from './grounding';
export { engineTradeFromItem, engineAccountFromItem, type EngineTradeFields } from './from-records';
export { engineTrade } from './trade-record';
export { tagBreakdown } from './by-tag';
