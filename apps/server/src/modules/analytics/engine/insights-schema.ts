/**
 * The structure an LLM must return for the insight cards, as a zod 4 schema. It is written for
 * strict structured output (OpenAI `json_schema` strict, Vertex `responseJsonSchema`): fixed
 * property names, every property required, no open-ended records, which is why the two object
 * cards travel as arrays of {title, detail} and become key/value objects in toInsightCards.
 */
import { z } from 'zod';
import type { CardObject, InsightSource, OverviewInsights } from './types';

const insightPoint = z.object({
  title: z.string().describe('A short heading of one to four words, e.g. "Risk Control".'),
  detail: z.string().describe('One or two sentences that quote the numbers from the facts that support the point.'),
});

export const insightsSchema = z.object({
  aiInsights: z
    .array(insightPoint)
    .min(1)
    .max(6)
    .describe('The most important observations about the results, strongest evidence first.'),
  quickWins: z
    .array(z.string().describe('One concrete action, naming the number that calls for it.'))
    .min(1)
    .max(5)
    .describe('Changes the trader can make from the next trade on.'),
  longTermStrategy: z
    .array(insightPoint)
    .min(1)
    .max(5)
    .describe('Direction for the coming months: focus, risk per trade, style, sample size.'),
});

export type StructuredInsights = z.infer<typeof insightsSchema>;
export type InsightPoint = z.infer<typeof insightPoint>;

/** Instructions to send with the facts; the schema carries the shape. */
export const INSIGHTS_INSTRUCTIONS = [
  "You are a trading coach reviewing one trader's OANDA history.",
  'You receive computed facts as JSON. Write insights only from those facts.',
  'Every number you state must appear in the facts (you may round it); never compute, estimate or invent a number.',
  "Amounts are in the facts' currency; percentages are already percent; durations are given as text.",
  'Name the number behind each point, e.g. "7 of 9 open trades have no stop-loss".',
  'No advice to buy or sell a particular instrument now; no promises of returns.',
  '"tags" are the trader\'s own journal tags (kind setup, mistake or emotion) with the closed trades carrying them: name a setup that pays or a mistake that costs, by its name, when its numbers show it.',
].join('\n');

function toCard(points: readonly InsightPoint[]): CardObject | null {
  if (points.length === 0) return null;
  const card: CardObject = {};
  for (const point of points) {
    const base = point.title.trim() || 'Insight';
    let title = base;
    for (let n = 2; title in card; n++) title = `${base} (${n})`;
    card[title] = point.detail.trim();
  }
  return card;
}

/** Structured insights (validated LLM output or the built-in rules) as the web's cards. */
export function toInsightCards(insights: StructuredInsights, source: InsightSource): OverviewInsights {
  return {
    aiInsights: toCard(insights.aiInsights),
    quickWins: insights.quickWins.map((text) => text.trim()).filter((text) => text !== ''),
    longTermStrategy: toCard(insights.longTermStrategy),
    source,
  };
}
