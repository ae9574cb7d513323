export type * from './types';
export { computeMetrics } from './compute-metrics';
export { buildInsights } from './insights';
export { insightFacts, type InsightFacts } from './insight-facts';
export { insightsSchema, toInsightCards, INSIGHTS_INSTRUCTIONS, type StructuredInsights } from './insights-schema';
export { findUngroundedNumbers, insightTexts } from './grounding';
export { engineTradeFromItem, engineAccountFromItem } from './from-records';
export { tagBreakdown } from './by-tag';
