import { z } from 'zod';
import type { LlmProvider } from '../../integrations/llm';
import {
  findUngroundedNumbers,
  insightFacts,
  insightsSchema,
  insightTexts,
  INSIGHTS_INSTRUCTIONS,
  type InsightFacts,
  type OverviewMetrics,
  type StructuredInsights,
} from './engine';
import { providerJsonSchema } from '../../lib/json-schema';
import { InsightsRejectedError } from './insight-notes';

/**
 * The facts a provider writes from. "Trades opened in the last 7 days" is left out: it moves with the clock,
 * while the insights are kept for the whole data version (until the next sync) and must stay true that long.
 */
export type WriterFacts = Omit<InsightFacts, 'counts'> & {
  counts: Omit<InsightFacts['counts'], 'tradesOpenedLast7Days'>;
};

export function writerFacts(metrics: OverviewMetrics): WriterFacts {
  const facts = insightFacts(metrics);
  const { tradesOpenedLast7Days: _clockDependent, ...counts } = facts.counts;
  return { ...facts, counts };
}

/** The strict JSON schema of the answer, derived from the zod schema that validates it. */
const ANSWER_SCHEMA: Record<string, unknown> = providerJsonSchema(insightsSchema);

export interface WrittenInsights {
  insights: StructuredInsights;
  /** The model as the provider reported it. */
  model: string;
}

/**
 * One structured-output call. Rejects with the provider's LlmError, or InsightsRejectedError when the answer
 * fails the schema or states a number that is not among the facts it was given.
 */
export async function writeInsights(
  provider: LlmProvider,
  model: string,
  facts: WriterFacts,
  signal: AbortSignal,
): Promise<WrittenInsights> {
  const result = await provider.complete({
    model,
    signal,
    messages: [
      { role: 'system', content: INSIGHTS_INSTRUCTIONS },
      { role: 'user', content: `The facts:\n${JSON.stringify(facts)}` },
    ],
    jsonSchema: { name: 'overview_insights', schema: ANSWER_SCHEMA, strict: true },
  });
  const parsed = insightsSchema.safeParse(result.json);
  if (!parsed.success) throw new InsightsRejectedError('shape', [], z.prettifyError(parsed.error));
  const ungrounded = findUngroundedNumbers(insightTexts(parsed.data), facts);
  if (ungrounded.length > 0) throw new InsightsRejectedError('ungrounded', ungrounded);
  return { insights: parsed.data, model: result.model || model };
}
