import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { compareDecimals, sumDecimals } from '../../../domain/decimal';
import type { ParsedReport, ParsedTrade } from './types';

/* Test helpers for the parser tests (fixtures beside them in ./fixtures). */

export const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
export const fixtureJson = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;

/** `2024.03.01 09:12[:05]` (as printed) → `2024-03-01T09:12:05`. */
export const iso = (printed: string) =>
  `${printed.slice(0, 4)}-${printed.slice(5, 7)}-${printed.slice(8, 10)}T${printed.slice(11, 16)}:${printed.slice(17, 19) || '00'}`;

/** Two decimal strings (or nulls) are the same number. */
export function expectSameDecimal(actual: string | null | undefined, expected: string | null | undefined, label = '') {
  if (expected === null || expected === undefined) {
    expect(actual ?? null, label).toBeNull();
    return;
  }
  expect(actual, label).not.toBeNull();
  expect(compareDecimals(actual!, expected), `${label}: ${actual} vs ${expected}`).toBe(0);
}

const DECIMAL_FIELDS = [
  'lots',
  'openPrice',
  'closePrice',
  'sl',
  'tp',
  'commission',
  'taxes',
  'swap',
  'profit',
] as const;

/** Every field of a parsed trade against an expectation (decimals as decimals, times normalised). */
export function expectTrade(actual: ParsedTrade, expected: Omit<ParsedTrade, 'row'> & { row?: number }) {
  const label = `trade ${expected.ticket}`;
  for (const key of DECIMAL_FIELDS) expectSameDecimal(actual[key], expected[key], `${label} ${key}`);
  const rest = (t: Partial<ParsedTrade>) => ({
    ticket: t.ticket,
    symbol: t.symbol,
    side: t.side,
    openTime: t.openTime,
    closeTime: t.closeTime,
    comment: t.comment,
    magic: t.magic,
  });
  expect(rest(actual), label).toEqual(rest(expected));
  if (expected.row !== undefined) expect(actual.row, `${label} row`).toBe(expected.row);
}

/** Σ(profit + commission + taxes + swap) of the closed trades. */
export const netOf = (report: ParsedReport) =>
  sumDecimals(report.closedTrades.flatMap((t) => [t.profit, t.commission, t.taxes, t.swap]));

/** Runs `work` and returns the ReportError it throws (fails the test when it does not). */
export function reportError(work: () => unknown): { code: string; message: string; details?: unknown } {
  try {
    work();
  } catch (error) {
    const e = error as { name: string; code: string; message: string; details?: unknown };
    expect(e.name).toBe('ReportError');
    return { code: e.code, message: e.message, details: e.details };
  }
  throw new Error('expected a ReportError, nothing was thrown');
}
