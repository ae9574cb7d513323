import { createHash } from 'node:crypto';
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

/** The accounts' live valuations among the risk facts: they move with every price, so with every sync. */
type LiveValuation =
  | 'marginUsed'
  | 'nav'
  | 'marginUtilisation'
  | 'maxAccountMarginUtilisation'
  | 'maxAccountMarginId'
  | 'openExposure'
  | 'exposureToNav'
  | 'unrealizedPL';

/**
 * The facts a provider writes from, and what its insights are keyed by (`factsKey`): they are kept for as long as
 * these facts hold, and must stay true that long. Left out: "trades opened in the last 7 days", which moves with the
 * clock, and the accounts' live valuations (NAV, margin, exposure, unrealized P/L), which move with every price, so
 * with every background sync while trades are open; the Overview's own cards show those, as of the last sync.
 */
export type WriterFacts = Omit<InsightFacts, 'counts' | 'risk'> & {
  counts: Omit<InsightFacts['counts'], 'tradesOpenedLast7Days'>;
  risk: Omit<NonNullable<InsightFacts['risk']>, LiveValuation> | null;
};

export function writerFacts(metrics: OverviewMetrics): WriterFacts {
  const facts = insightFacts(metrics);
  const { tradesOpenedLast7Days: _clockDependent, ...counts } = facts.counts;
  let risk: WriterFacts['risk'] = null;
  if (facts.risk !== null) {
    const {
      marginUsed: _marginUsed,
      nav: _nav,
      marginUtilisation: _marginUtilisation,
      maxAccountMarginUtilisation: _maxAccountMarginUtilisation,
      maxAccountMarginId: _maxAccountMarginId,
      openExposure: _openExposure,
      exposureToNav: _exposureToNav,
      unrealizedPL: _unrealizedPL,
      ...closedBook
    } = facts.risk;
    risk = closedBook;
  }
  return { ...facts, counts, risk };
}

/** The user message a provider gets: the facts as JSON. */
const factsMessage = (facts: WriterFacts): string => `The facts:\n${JSON.stringify(facts)}`;

/**
 * What the insights of these facts are keyed by: a digest of the facts exactly as a provider is given them (the
 * message's JSON), so a new data version whose facts are the same (a sync that moved only prices, a journal change
 * that no fact shows) is served the insights already written, and any change a provider would see asks again.
 */
export function factsKey(facts: WriterFacts): string {
  return createHash('sha256').update(factsMessage(facts)).digest('base64url').slice(0, 32);
}

/**
 * The output-token cap of an insights call (SECURITY.md, AI cost): the cards are short, and a run-away answer is cut
 * here (an `LlmError('length')`, so the built-in cards with a note) instead of billing up to the assistant's larger
 * cap.
 */
const INSIGHTS_MAX_OUTPUT_TOKENS = 1200;

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
    maxOutputTokens: INSIGHTS_MAX_OUTPUT_TOKENS,
    messages: [
      { role: 'system', content: INSIGHTS_INSTRUCTIONS },
      { role: 'user', content: factsMessage(facts) },
    ],
    jsonSchema: { name: 'overview_insights', schema: ANSWER_SCHEMA, strict: true },
  });
  const parsed = insightsSchema.safeParse(result.json);
  if (!parsed.success) throw new InsightsRejectedError('shape', [], z.prettifyError(parsed.error));
  const ungrounded = findUngroundedNumbers(insightTexts(parsed.data), facts);
  if (ungrounded.length > 0) throw new InsightsRejectedError('ungrounded', ungrounded);
  return { insights: parsed.data, model: result.model || model };
}
