import type { Bookings } from './balance';

/**
 * Time-weighted return (docs/money.md, Returns): the account's value is read just before each external cash flow
 * (deposit, withdrawal, credit); each sub-period's growth is value before the flow ÷ value after the previous one;
 * the sub-periods are chained by multiplication, so money brought in or taken out is never counted as performance.
 * The value is the balance B(t): a position counts when it closes.
 */

export type ReturnPeriod = 'day' | 'month' | 'year';

/** The UTC start (epoch ms) of the period holding `at`, and of the next one; null: one period from `at` on. */
function periodStart(at: number, period: ReturnPeriod | null): number {
  if (period === null) return at;
  const d = new Date(at);
  if (period === 'day') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (period === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return Date.UTC(d.getUTCFullYear(), 0, 1);
}

function nextPeriod(start: number, period: ReturnPeriod | null): number {
  if (period === null) return Number.POSITIVE_INFINITY;
  const d = new Date(start);
  if (period === 'day') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  if (period === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
}

/** A growth factor as a percent with 4 decimals ('8.0450' for 1.08045). */
export function percentOf(factor: number): string {
  const text = ((factor - 1) * 100).toFixed(4);
  return /^-0\.0+$/.test(text) ? text.slice(1) : text;
}

export interface ReturnsResult {
  /** Growth factor over [from, to]. */
  total: number;
  periods: Array<{ start: number; factor: number }>;
}

/**
 * TWR over [from, to] (epoch ms; bookings oldest first, of one account or merged from several of one currency,
 * balance.ts mergeBookings), in total and per period (null: the range as one period). Bookings before `from` only set
 * the starting value. A sub-period that starts with no money in the account (value ≤ 0) has no return: it counts
 * as 1.
 */
export function timeWeightedReturns(
  bookings: Bookings,
  from: number,
  to: number,
  period: ReturnPeriod | null,
): ReturnsResult {
  const { at, minor, external } = bookings;
  let i = 0;
  let value = 0;
  while (i < bookings.length && at[i]! < from) value += minor[i++]!;
  const periods: ReturnsResult['periods'] = [];
  let total = 1;
  let start = periodStart(from, period);
  let end = nextPeriod(start, period);
  let startValue = value;
  let factor = 1;
  const close = () => {
    if (startValue > 0) factor *= value / startValue;
    periods.push({ start, factor });
    total *= factor;
  };
  for (; i < bookings.length && at[i]! <= to; i++) {
    while (at[i]! >= end) {
      close();
      start = end;
      end = nextPeriod(start, period);
      startValue = value;
      factor = 1;
    }
    if (external[i] === 1) {
      if (startValue > 0) factor *= value / startValue;
      value += minor[i]!;
      startValue = value;
    } else value += minor[i]!;
  }
  while (end <= to) {
    close();
    start = end;
    end = nextPeriod(start, period);
    startValue = value;
    factor = 1;
  }
  close();
  return { total, periods };
}
