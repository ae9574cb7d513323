/** Helpers for this package's tests: the reference fixtures and a structural comparison. */
import { readFileSync } from 'node:fs';

const FIXTURES = new URL('../fixtures/', import.meta.url);

export function fixtureText(path: string): string {
  return readFileSync(new URL(path, FIXTURES), 'utf8');
}

export function fixtureJson<T = unknown>(path: string): T {
  return JSON.parse(fixtureText(path)) as T;
}

/** The JSON payloads of an SSE text, in order (`[DONE]` kept as the string). */
export function ssePayloads(text: string): unknown[] {
  return text
    .split(/\r\n\r\n|\n\n|\r\r/)
    .map((event) => event.trim())
    .filter((event) => event.startsWith('data:'))
    .map((event) => {
      const data = event.slice('data:'.length).trim();
      return data === '[DONE]' ? data : (JSON.parse(data) as unknown);
    });
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Differences in structure between `actual` and the fixture `expected`: same keys (those in
 * `optional` may be missing from `actual`), same JSON types; arrays compare their first elements.
 */
export function shapeDiff(actual: unknown, expected: unknown, optional: string[] = [], path = '$'): string[] {
  const a = kind(actual);
  const e = kind(expected);
  if (a !== e) return [`${path}: ${a} instead of ${e}`];
  if (e === 'array') {
    const [first] = expected as unknown[];
    const [firstActual] = actual as unknown[];
    if (first === undefined) return [];
    if (firstActual === undefined) return [`${path}: empty array`];
    return shapeDiff(firstActual, first, optional, `${path}[0]`);
  }
  if (e !== 'object') return [];
  const exp = expected as Record<string, unknown>;
  const act = actual as Record<string, unknown>;
  const out: string[] = [];
  for (const key of Object.keys(exp)) {
    if (!(key in act)) {
      if (!optional.includes(key)) out.push(`${path}.${key}: missing`);
      continue;
    }
    out.push(...shapeDiff(act[key], exp[key], optional, `${path}.${key}`));
  }
  for (const key of Object.keys(act)) {
    if (!(key in exp)) out.push(`${path}.${key}: not in the fixture`);
  }
  return out;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
