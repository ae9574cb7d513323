import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinorUnits } from '../../domain/money';
import { historyJson } from './history-json';
import { EQUITY_SOURCES, type HistoryColumns, type TradePoints } from './money.service';

/*
 * The history's JSON bytes (history-json.ts) are, byte for byte, what JSON.stringify writes for the same points as
 * the contract's objects: times by toISOString, amounts by formatMinorUnits; with the book's kept text and without.
 */

/** The body as JSON.stringify writes it. */
function expected(message: string, h: HistoryColumns): string {
  const points = Array.from({ length: h.length }, (_, i) => ({
    time: new Date(h.times[i]!).toISOString(),
    balance: formatMinorUnits(h.balances[i]!),
    equity: Number.isNaN(h.equities[i]!) ? null : formatMinorUnits(h.equities[i]!),
    equitySource: Number.isNaN(h.equities[i]!) ? null : EQUITY_SOURCES[h.sources[i]!],
  }));
  return JSON.stringify({
    success: true,
    message,
    data: { currency: h.currency, points, equityComplete: h.equityComplete },
  });
}

const minor = fc.oneof(
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
  fc.constantFrom(0, 1, -1, 9_999, -10_000, 10_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER),
);
/** Times from 1969 to 2100, most on the same few days (the date is written once per day). */
const time = fc.oneof(
  fc.integer({ min: -86_400_000 * 2, max: 4_102_444_800_000 }),
  fc.integer({ min: 0, max: 3 * 86_400_000 }).map((ms) => Date.UTC(2025, 1, 27) + ms),
);
const point = fc.record({
  time,
  balance: minor,
  equity: fc.option(minor),
  source: fc.constantFrom(1, 2),
});

describe('the balance history as JSON bytes', () => {
  it('is what JSON.stringify writes for the same points', () => {
    fc.assert(
      fc.property(fc.array(point, { maxLength: 40 }), fc.boolean(), (raw, complete) => {
        const sorted = [...raw].sort((a, b) => a.time - b.time);
        const h: HistoryColumns = {
          currency: 'JPY',
          length: sorted.length,
          times: Float64Array.from(sorted, (p) => p.time),
          balances: Float64Array.from(sorted, (p) => p.balance),
          equities: Float64Array.from(sorted, (p) => p.equity ?? Number.NaN),
          sources: Uint8Array.from(sorted, (p) => (p.equity === null ? 0 : p.source)),
          equityComplete: complete,
        };
        expect(historyJson('3 points; "quoted"', h).toString('latin1')).toBe(expected('3 points; "quoted"', h));
      }),
    );
  });

  it("copies the book's points where their equity is unknown, and writes the others", () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: 40 }), fc.nat(), fc.nat(), (raw, a, b) => {
        const sorted = [...raw].sort((x, y) => x.time - y.time);
        const book: TradePoints = {
          times: Float64Array.from(sorted, (p) => p.time),
          balances: Float64Array.from(sorted, (p) => p.balance),
        };
        // A run of at least half the book's points (shorter ones are written point by point).
        const length = Math.ceil(sorted.length / 2) + (a % (Math.floor(sorted.length / 2) + 1));
        const first = b % (sorted.length - length + 1);
        const run = sorted.slice(first, first + length);
        const h: HistoryColumns = {
          currency: null,
          length,
          times: book.times.subarray(first, first + length),
          balances: book.balances.subarray(first, first + length),
          equities: Float64Array.from(run, (p) => p.equity ?? Number.NaN),
          sources: Uint8Array.from(run, (p) => (p.equity === null ? 0 : p.source)),
          equityComplete: false,
          of: { points: book, first },
        };
        expect(historyJson('m', h).toString('latin1')).toBe(expected('m', h));
        // Again, from the text the first answer kept with the book.
        expect(book.text).toBeDefined();
        expect(historyJson('m', h).toString('latin1')).toBe(expected('m', h));
      }),
    );
  });
});
