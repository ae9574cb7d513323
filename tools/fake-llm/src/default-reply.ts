import { numbersIn, sampleArguments, sampleDocument } from './sample-values';
import type { FakeReply, FakeRequest, FakeTool } from './types';

const MAX_FACTS = 12;

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'what',
  'where',
  'how',
  'show',
  'get',
  'are',
  'was',
  'my',
  'your',
  'all',
  'now',
  'its',
  'this',
  'that',
  'from',
  'user',
]);
/** Words a trader uses for what the tools call otherwise. */
const SYNONYMS: Record<string, string> = {
  chart: 'candles',
  price: 'candles',
  ohlc: 'candles',
  balance: 'account',
  margin: 'account',
  nav: 'account',
  equity: 'account',
  winners: 'trades',
  losers: 'trades',
  positions: 'trades',
};

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
}

function questionWords(text: string): string[] {
  return words(text).flatMap((w) => (SYNONYMS[w] ? [w, SYNONYMS[w]] : [w]));
}

/** Loose match so that "trades" finds list_trades and "candles" finds get_candles. */
function related(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length, 5);
  return n >= 3 && a.slice(0, n) === b.slice(0, n);
}

/** The tool whose name and description share most words with the question; the first on a tie. */
export function pickTool(tools: FakeTool[], question: string): FakeTool | undefined {
  const asked = questionWords(question);
  let best: FakeTool | undefined;
  let bestScore = -1;
  for (const tool of tools) {
    const nameWords = words(tool.name.replace(/_/g, ' '));
    const descWords = words(tool.description ?? '');
    const score = asked.reduce(
      (sum, w) => sum + (nameWords.some((t) => related(w, t)) ? 3 : 0) + (descWords.some((t) => related(w, t)) ? 1 : 0),
      0,
    );
    if (score > bestScore) {
      best = tool;
      bestScore = score;
    }
  }
  return best;
}

/** Numeric leaves of a tool result with their paths: `wins 4`, `last.c 1.17311`. */
function facts(value: unknown, path: string, out: string[]): void {
  if (out.length > MAX_FACTS * 4) return;
  if (typeof value === 'number' && Number.isFinite(value)) {
    out.push(`${path || 'value'} ${value}`);
  } else if (typeof value === 'string' && /^[-+]?\d+(\.\d+)?$/.test(value.trim())) {
    out.push(`${path || 'value'} ${value.trim()}`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => facts(item, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) facts(v, path ? `${path}.${k}` : k, out);
  }
}

function errorOf(result: unknown): string | undefined {
  if (result !== null && typeof result === 'object' && 'error' in result) {
    const { error } = result;
    return typeof error === 'string' ? error : JSON.stringify(error);
  }
  return undefined;
}

/** An answer that repeats the figures of the tool results, so tests can see real data flow through. */
export function summarizeToolResults(results: FakeRequest['toolResults']): string {
  const sentences = results.map(({ name, result }) => {
    const error = errorOf(result);
    if (error !== undefined) return `The tool ${name} reported an error: ${error}`;
    const found: string[] = [];
    facts(result, '', found);
    if (found.length === 0) return `The tool ${name} returned no figures.`;
    const shown = found.slice(0, MAX_FACTS).join(', ');
    const more = found.length > MAX_FACTS ? ` (and ${found.length - MAX_FACTS} more values)` : '';
    return `From ${name}: ${shown}${more}.`;
  });
  return `Here is what your data shows. ${sentences.join(' ')}`;
}

/**
 * What the fake model does when nothing is scripted:
 * - structured output asked: a document matching the schema, quoting the prompt's numbers;
 * - tools offered and no results yet: one call of the most relevant tool, arguments read off the question;
 * - tool results present: a text quoting their numbers;
 * - otherwise: a short text that repeats the question.
 */
export function defaultReply(request: FakeRequest): FakeReply {
  if (request.jsonSchema) {
    const prompt = request.messages.map((m) => m.text).join('\n');
    return { json: sampleDocument(request.jsonSchema, prompt) };
  }
  if (request.toolResults.length > 0) return { text: summarizeToolResults(request.toolResults) };
  const tool = pickTool(request.tools, request.lastUserText);
  if (tool) return { toolCalls: [{ name: tool.name, args: sampleArguments(tool.parameters, request.lastUserText) }] };
  const figures = numbersIn(request.lastUserText);
  const suffix = figures.length > 0 ? ` The figures you gave: ${figures.join(', ')}.` : '';
  return { text: `This is the fake model answering: "${request.lastUserText}".${suffix}` };
}
