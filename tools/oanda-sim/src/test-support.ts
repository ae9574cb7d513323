// Shared helpers for the simulator's own tests: the reference fixtures, HTTP calls and exact decimals.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OandaSim } from './index';

/** The OANDA v20 reference fixtures, kept in the repository (fixtures/NOTES.md). */
const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(`${FIXTURE_DIR}${name}`, 'utf8')) as T;
}

/** The fixtures' "now": Friday 2025-10-03 14:30:12Z, market open. */
export const FIXED_NOW = Date.UTC(2025, 9, 3, 14, 30, 12, 384);

export interface Got<T> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export async function get<T = Record<string, unknown>>(
  sim: OandaSim,
  path: string,
  init: { token?: string | null; headers?: Record<string, string>; method?: string } = {},
): Promise<Got<T>> {
  const headers: Record<string, string> = { ...init.headers };
  const token = init.token === undefined ? sim.token : init.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${sim.url}${path}`, { method: init.method ?? 'GET', headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text === '' ? null : JSON.parse(text)) as T };
}

/** An OANDA decimal string as an exact integer scaled by 10^scale. */
export function scaled(decimal: string, scale: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!m) throw new Error(`not a decimal: ${decimal}`);
  const [, sign, whole, frac = ''] = m;
  if (frac.length > scale) throw new Error(`${decimal} has more than ${scale} decimals`);
  const value = BigInt(whole + frac.padEnd(scale, '0'));
  return sign ? -value : value;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

/** Keys and JSON types of an object, for shape comparisons. */
export function shapeOf(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonType(v)]));
}

export const RFC3339_NANO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
export const MONEY = /^-?\d+\.\d{4}$/;
export const DIGITS = /^\d+$/;
