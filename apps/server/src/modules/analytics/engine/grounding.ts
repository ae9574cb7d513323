/**
 * Checks that the numbers in insight text come from the facts the writer was given. Built-in
 * insights pass by construction (the tests check it); an LLM's answer can be checked the same way
 * before it is shown, and replaced by the built-in text if it invents numbers.
 */
import type { StructuredInsights } from './insights-schema';
import { round } from '../../../domain/rounding';

/** Digits with optional thousands separators and decimals; '08:00' yields '08' and '00'. */
const NUMBER_TOKEN = /\d[\d,]*(?:\.\d+)?/g;

function decimalsOf(token: string): number {
  const dot = token.indexOf('.');
  return dot < 0 ? 0 : token.length - dot - 1;
}

function key(value: number, decimals: number): string {
  return `${decimals}:${round(Math.abs(value), decimals).toFixed(decimals)}`;
}

const MAX_DECIMALS = 4;

/** Every number of the facts (and inside their strings), at each precision a text may round it to. */
function groundedKeys(facts: unknown): Set<string> {
  const keys = new Set<string>();
  const addNumber = (value: number): void => {
    if (!Number.isFinite(value)) return;
    for (let d = 0; d <= MAX_DECIMALS; d++) keys.add(key(value, d));
  };
  const visit = (value: unknown): void => {
    if (typeof value === 'number') addNumber(value);
    else if (typeof value === 'string') {
      for (const token of value.match(NUMBER_TOKEN) ?? []) addNumber(Number(token.replaceAll(',', '')));
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(facts);
  return keys;
}

/** The numeric tokens of `texts` that match no number of `facts` at the precision written. */
export function findUngroundedNumbers(texts: readonly string[], facts: unknown): string[] {
  const keys = groundedKeys(facts);
  const missing: string[] = [];
  for (const text of texts) {
    for (const token of text.match(NUMBER_TOKEN) ?? []) {
      const clean = token.replace(/[.,]+$/, '').replaceAll(',', '');
      if (clean === '') continue;
      const decimals = Math.min(decimalsOf(clean), MAX_DECIMALS);
      if (!keys.has(key(Number(clean), decimals))) missing.push(token);
    }
  }
  return missing;
}

/** All the text of structured insights, for findUngroundedNumbers. */
export function insightTexts(insights: StructuredInsights): string[] {
  return [
    ...insights.aiInsights.flatMap((point) => [point.title, point.detail]),
    ...insights.quickWins,
    ...insights.longTermStrategy.flatMap((point) => [point.title, point.detail]),
  ];
}
