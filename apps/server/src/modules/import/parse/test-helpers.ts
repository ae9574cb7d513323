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

/** What the MT5 fixture's expectations say of a closed and an open position alike. */
interface Mt5ExpectedPosition {
  positionId: string;
  symbol: string;
  side: 'buy' | 'sell';
  lots: string;
  openTime: string;
  openPrice: string;
  swap: string;
  profit: string;
}

/** The shared MT5 fixture's expectations (fixtures/mt5-report.expected.json): what the terminal printed. */
interface Mt5Expected {
  account: { number: string; name: string; currency: string; server: string; company: string };
  closedTrades: Array<
    Mt5ExpectedPosition & {
      closeTime: string;
      closePrice: string;
      sl: string | null;
      tp: string | null;
      commission: string;
      comment: string | null;
    }
  >;
  openTrades: Array<Mt5ExpectedPosition & { marketPrice: string }>;
  balanceOperations: Array<{ deal: string; type: string; time: string; amount: string; comment: string }>;
  skipped: Array<{ order: string; type: string; reason: string }>;
  totals: Record<string, string | number>;
}

export const MT5_EXPECTED = fixtureJson<Mt5Expected>('mt5-report.expected.json');

/** What a closed and an open position of the MT5 fixture share (an MT5 report has no taxes or magic numbers). */
const mt5Position = (e: Mt5ExpectedPosition, row: number | undefined) => ({
  row,
  ticket: e.positionId,
  symbol: e.symbol,
  side: e.side,
  lots: e.lots,
  openTime: iso(e.openTime),
  openPrice: e.openPrice,
  taxes: '0',
  swap: e.swap,
  profit: e.profit,
  magic: null,
});

/** A closed position of the MT5 fixture as the parser reads it. */
export const mt5ClosedTrade = (e: Mt5Expected['closedTrades'][number], row?: number) => ({
  ...mt5Position(e, row),
  closeTime: iso(e.closeTime),
  closePrice: e.closePrice,
  sl: e.sl,
  tp: e.tp,
  commission: e.commission,
  comment: e.comment,
});

/** The MT5 fixture's open position as the parser reads it: its market price as the close price. */
export const mt5OpenTrade = (e: Mt5Expected['openTrades'][number], row?: number) => ({
  ...mt5Position(e, row),
  closeTime: null,
  closePrice: e.marketPrice,
  sl: null,
  tp: null,
  commission: '0',
  comment: null,
});

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
