import { instantOf } from '../../domain/calendar';
import { minorUnitsOf } from '../../domain/money';
import type { CashFlow, CashFlowType, ClosedTrades } from './ports';

/**
 * B(t): the balance after every booked amount (docs/money.md, B(t)). Amounts are summed exactly in minor units
 * (domain/money.ts), never as binary fractions.
 */

/**
 * Every booked amount of an account (a closed trade's result or a cash flow), oldest first, as columns: an account
 * may book 100,000 trades, and a history reads them all.
 */
export interface Bookings {
  length: number;
  /** Epoch milliseconds. */
  at: Float64Array;
  /** Minor units of the account currency, signed. */
  minor: Float64Array;
  /** 1: money brought in or taken out (EXTERNAL_FLOWS), not performance; 0: a trade or another cash flow. */
  external: Uint8Array;
}

/** Money brought in or taken out by the trader or the broker's credit: not performance (docs/money.md, Returns). */
const EXTERNAL_FLOWS: ReadonlySet<CashFlowType> = new Set(['deposit', 'withdrawal', 'credit']);

/**
 * Every booking of the account, oldest first (a tie in time keeps trades before cash flows): the closed trades
 * (already in close-time order) merged with the cash flows. A closed trade books its realized P/L at its close; its
 * financing too, unless the cash flows list financing themselves (OANDA's daily financing transactions), which would
 * count it twice (docs/money.md, What a trade books).
 */
export function bookingsOf(closed: ClosedTrades, flows: readonly CashFlow[]): Bookings {
  const financingItemised = flows.some((f) => f.type === 'financing');
  const flowAt = flows.map((f) => instantOf(f.time));
  // Array.prototype.sort is stable: cash flows of the same time keep their order.
  const order = flowAt.map((_, i) => i).sort((a, b) => flowAt[a]! - flowAt[b]!);
  const trades = closed.closeAt.length;
  const length = trades + flows.length;
  const at = new Float64Array(length);
  const minor = new Float64Array(length);
  const external = new Uint8Array(length);
  let t = 0;
  let f = 0;
  for (let k = 0; k < length; k++) {
    if (f === order.length || (t < trades && closed.closeAt[t]! <= flowAt[order[f]!]!)) {
      at[k] = closed.closeAt[t]!;
      minor[k] = financingItemised ? closed.realizedPL[t]! : closed.realizedPL[t]! + closed.financing[t]!;
      t++;
    } else {
      const flow = flows[order[f]!]!;
      at[k] = flowAt[order[f]!]!;
      minor[k] = minorUnitsOf(flow.amount);
      external[k] = EXTERNAL_FLOWS.has(flow.type) ? 1 : 0;
      f++;
    }
  }
  return { length, at, minor, external };
}

/**
 * The bookings of several accounts of one currency as those of one: their combined balance is the sum of theirs
 * (docs/money.md, Returns on the Overview). Oldest first; a tie in time keeps trades before cash flows, as one
 * account's bookings do.
 */
export function mergeBookings(lists: readonly Bookings[]): Bookings {
  if (lists.length === 1) return lists[0]!;
  const from: Array<[list: number, index: number]> = [];
  lists.forEach((list, l) => {
    for (let i = 0; i < list.length; i++) from.push([l, i]);
  });
  // Stable: within a time, a trade or other booking before money brought in or taken out, as one account's order.
  from.sort(
    ([la, ia], [lb, ib]) =>
      lists[la]!.at[ia]! - lists[lb]!.at[ib]! || lists[la]!.external[ia]! - lists[lb]!.external[ib]!,
  );
  const length = from.length;
  const merged: Bookings = {
    length,
    at: new Float64Array(length),
    minor: new Float64Array(length),
    external: new Uint8Array(length),
  };
  from.forEach(([l, i], k) => {
    merged.at[k] = lists[l]!.at[i]!;
    merged.minor[k] = lists[l]!.minor[i]!;
    merged.external[k] = lists[l]!.external[i]!;
  });
  return merged;
}

/** The balance after each booking, in the bookings' order (minor units). */
export function runningBalances(bookings: Bookings): Float64Array {
  const balances = new Float64Array(bookings.length);
  let balance = 0;
  for (let i = 0; i < bookings.length; i++) {
    balance += bookings.minor[i]!;
    if (!Number.isSafeInteger(balance)) throw new RangeError('balance out of exact range');
    balances[i] = balance;
  }
  return balances;
}

/** Index of the last booking at or before `at` (−1: none), by binary search. */
export function lastBookingAt(bookings: Bookings, at: number): number {
  let lo = 0;
  let hi = bookings.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (bookings.at[mid]! <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
