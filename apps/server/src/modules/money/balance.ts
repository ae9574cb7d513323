import { instantOf } from '../../domain/calendar';
import { minorUnitsOf } from '../../domain/money';
import type { CashFlow, CashFlowType, MoneyTrade } from './ports';

/**
 * B(t): the balance after every booked amount (docs/money.md, B(t)). Amounts are summed exactly in minor units
 * (domain/money.ts), never as binary fractions.
 */

/** One booked amount: a closed trade's result or a cash flow. */
export interface Booking {
  /** Epoch milliseconds. */
  at: number;
  /** Minor units of the account currency, signed. */
  minor: number;
  kind: 'trade' | CashFlowType;
}

/** Money brought in or taken out by the trader or the broker's credit: not performance (docs/money.md, Returns). */
export const EXTERNAL_FLOWS: ReadonlySet<CashFlowType> = new Set(['deposit', 'withdrawal', 'credit']);

/**
 * Every booking of the account, oldest first (a tie in time keeps trades before cash flows). A closed trade books
 * its realized P/L at its close; its financing too, unless the cash flows list financing themselves (OANDA's daily
 * financing transactions), which would count it twice (docs/money.md, What a trade books).
 */
export function bookingsOf(trades: readonly MoneyTrade[], flows: readonly CashFlow[]): Booking[] {
  const financingItemised = flows.some((f) => f.type === 'financing');
  const out: Booking[] = [];
  for (const trade of trades) {
    if (trade.state !== 'CLOSED' || trade.closeTime === null) continue;
    let minor = minorUnitsOf(trade.realizedPL);
    if (!financingItemised) minor += minorUnitsOf(trade.financing);
    out.push({ at: instantOf(trade.closeTime), minor, kind: 'trade' });
  }
  for (const flow of flows) out.push({ at: instantOf(flow.time), minor: minorUnitsOf(flow.amount), kind: flow.type });
  // Array.prototype.sort is stable: among equal times, trades (pushed first) stay first.
  return out.sort((a, b) => a.at - b.at);
}

/**
 * The bookings of several accounts of one currency as those of one: their combined balance is the sum of theirs
 * (docs/money.md, Returns on the Overview). Oldest first; a tie in time keeps trades before cash flows, as one
 * account's bookings do.
 */
export function mergeBookings(lists: ReadonlyArray<readonly Booking[]>): readonly Booking[] {
  if (lists.length === 1) return lists[0]!;
  const rank = (b: Booking) => (b.kind === 'trade' ? 0 : 1);
  return lists.flat().sort((a, b) => a.at - b.at || rank(a) - rank(b));
}

/** The balance after each booking, in the bookings' order (minor units). */
export function runningBalances(bookings: readonly Booking[]): Float64Array {
  const balances = new Float64Array(bookings.length);
  let balance = 0;
  for (let i = 0; i < bookings.length; i++) {
    balance += bookings[i]!.minor;
    if (!Number.isSafeInteger(balance)) throw new RangeError('balance out of exact range');
    balances[i] = balance;
  }
  return balances;
}

/** Index of the last booking at or before `at` (−1: none), by binary search. */
export function lastBookingAt(bookings: readonly Booking[], at: number): number {
  let lo = 0;
  let hi = bookings.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (bookings[mid]!.at <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
