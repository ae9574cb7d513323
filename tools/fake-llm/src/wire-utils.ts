import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random id in the style of the real ones (`chatcmpl-…`, `call_…`). */
export function randomId(prefix: string, length: number, alphabet = ALPHANUMERIC): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

/** Roughly four characters per token, like the providers' English average. */
export function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return Math.max(1, Math.ceil(text.length / 4));
}

/** "This month you" → ["This", " month", " you"]: the way token deltas look. */
export function wordPieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? (text ? [text] : []);
}

/** Cuts text into `size`-character pieces (tool arguments arrive like this). */
export function fixedPieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A field that should be a string; anything else counts as empty. */
export function asString(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

export function parseJsonOr<T>(text: string, fallback: T): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}
