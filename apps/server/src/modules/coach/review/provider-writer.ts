import { z } from 'zod';
import { tradeReview, type CoachFact, type TradeReview } from '@pipsense/contract';
import type { LlmProvider } from '../../../integrations/llm';
import { providerJsonSchema } from '../../../lib/json-schema';
import { executionScore, SCORE_RUBRIC } from './builtin-analyst';

/** What a provider writes: the points and the action; the score is computed by code (SCORE_RUBRIC). */
const writtenReview = tradeReview.omit({ score: true });
const ANSWER_SCHEMA: Record<string, unknown> = providerJsonSchema(writtenReview);

/** A review's output-token cap: a few short sentences; a run-away answer is cut (an LlmError) instead of billed. */
const REVIEW_MAX_OUTPUT_TOKENS = 1200;

const REVIEW_INSTRUCTIONS = [
  'You are a trading coach reviewing one closed forex trade.',
  'You are given the facts of the trade, each with a name, a value and a sentence. Use only these facts.',
  'Write 2 to 4 points on what went well and 2 to 4 on what to improve, and one concrete action for the next trade.',
  'Each point is one or two plain sentences and lists in "facts" the names of the facts it rests on; name only facts',
  'from the list. State no figure that is not among the facts. Put the most important points first.',
].join(' ');

/** Why a provider's answer was refused: its shape, or a point naming a fact that is not among the trade's. */
export class ReviewRejectedError extends Error {
  constructor(
    readonly reason: 'shape' | 'unknown_fact',
    detail: string,
  ) {
    super(`The provider's review was refused (${reason}): ${detail}`);
    this.name = 'ReviewRejectedError';
  }
}

/** One structured-output call; rejects with the provider's LlmError or ReviewRejectedError. */
async function writeOnce(
  provider: LlmProvider,
  model: string,
  facts: readonly CoachFact[],
  signal: AbortSignal,
): Promise<{ review: TradeReview; model: string }> {
  const result = await provider.complete({
    model,
    signal,
    maxOutputTokens: REVIEW_MAX_OUTPUT_TOKENS,
    messages: [
      { role: 'system', content: REVIEW_INSTRUCTIONS },
      { role: 'user', content: `The facts:\n${JSON.stringify(facts)}` },
    ],
    jsonSchema: { name: 'trade_review', schema: ANSWER_SCHEMA, strict: true },
  });
  const parsed = writtenReview.safeParse(result.json);
  if (!parsed.success) throw new ReviewRejectedError('shape', z.prettifyError(parsed.error));
  const known = new Set(facts.map((f) => f.name));
  const points = [...parsed.data.wentWell, ...parsed.data.toImprove, parsed.data.action];
  const unknown = [...new Set(points.flatMap((p) => p.facts).filter((name) => !known.has(name)))];
  if (unknown.length > 0) throw new ReviewRejectedError('unknown_fact', `it cites ${unknown.join(', ')}`);
  return {
    review: { ...parsed.data, score: { value: executionScore(facts), rubric: SCORE_RUBRIC } },
    model: result.model || model,
  };
}

/**
 * The provider's review of the facts (docs/coach.md, Reviews): an answer refused (its shape, or a point citing a
 * fact name not among the facts) is asked once more; a second refusal, or any provider error, rejects, and the
 * caller has the built-in analyst write it.
 */
export async function writeReview(
  provider: LlmProvider,
  model: string,
  facts: readonly CoachFact[],
  signal: AbortSignal,
): Promise<{ review: TradeReview; model: string }> {
  try {
    return await writeOnce(provider, model, facts, signal);
  } catch (error) {
    if (!(error instanceof ReviewRejectedError)) throw error;
    return writeOnce(provider, model, facts, signal);
  }
}
