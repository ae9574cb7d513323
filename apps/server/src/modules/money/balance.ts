import { instantOf } from '../../domain/calendar';
import { subtractDecimals, trimDecimal } from '../../domain/decimal';
import { minorUnitsOf } from '../../domain/money';
import type { CashFlow, CashFlowType, ClosedTrades, MoneyPartialClose, MoneyTrade } from './ports';

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
 * What the account's trades book, oldest first: each closed trade at its close (realized P/L, plus its financing
 * unless `financingItemised`), and each partial close at its own time, its amount then taken off its trade's close
 * (booked at the same instant, so a point at the close shows the trade's rest). A trade still open books its partial
 * closes only. A tie in time keeps the closed trades first.
 */
function tradeBookings(
  closed: ClosedTrades,
  partials: readonly MoneyPartialClose[],
  financingItemised: boolean,
): { at: Float64Array; minor: Float64Array } {
  const count = closed.closeAt.length;
  const own = Float64Array.from(closed.realizedPL, (pl, i) => (financingItemised ? pl : pl + closed.financing[i]!));
  if (partials.length === 0) return { at: closed.closeAt, minor: own };
  const extra: Array<{ at: number; minor: number }> = [];
  for (const p of partials) {
    const minor = minorUnitsOf(p.realizedPL) + (financingItemised ? 0 : minorUnitsOf(p.financing));
    extra.push({ at: instantOf(p.time), minor });
    if (p.tradeCloseTime !== null) extra.push({ at: instantOf(p.tradeCloseTime), minor: -minor });
  }
  // Array.prototype.sort is stable: entries of one time keep their order.
  extra.sort((a, b) => a.at - b.at);
  const length = count + extra.length;
  const at = new Float64Array(length);
  const minor = new Float64Array(length);
  let t = 0;
  let e = 0;
  for (let k = 0; k < length; k++) {
    if (e === extra.length || (t < count && closed.closeAt[t]! <= extra[e]!.at)) {
      at[k] = closed.closeAt[t]!;
      minor[k] = own[t++]!;
    } else {
      at[k] = extra[e]!.at;
      minor[k] = extra[e++]!.minor;
    }
  }
  return { at, minor };
}

/**
 * Every booking of the account, oldest first (a tie in time keeps trades before cash flows): what the trades book
 * (tradeBookings: closed trades at their close, partial closes at their own time) merged with the cash flows. A
 * trade's financing is booked with its P/L unless the cash flows list financing themselves (OANDA's daily financing
 * transactions), which would count it twice (docs/money.md, What a trade books).
 */
export function bookingsOf(
  closed: ClosedTrades,
  flows: readonly CashFlow[],
  partials: readonly MoneyPartialClose[] = [],
): Bookings {
  const financingItemised = flows.some((f) => f.type === 'financing');
  const trade = tradeBookings(closed, partials, financingItemised);
  const flowAt = flows.map((f) => instantOf(f.time));
  // Array.prototype.sort is stable: cash flows of the same time keep their order.
  const order = flowAt.map((_, i) => i).sort((a, b) => flowAt[a]! - flowAt[b]!);
  const trades = trade.at.length;
  const length = trades + flows.length;
  const at = new Float64Array(length);
  const minor = new Float64Array(length);
  const external = new Uint8Array(length);
  let t = 0;
  let f = 0;
  for (let k = 0; k < length; k++) {
    if (f === order.length || (t < trades && trade.at[t]! <= flowAt[order[f]!]!)) {
      at[k] = trade.at[t]!;
      minor[k] = trade.minor[t]!;
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
 * An account's trades as the positions E(t) values (docs/money.md, E(t)): a trade reduced before its close is one
 * position per partial close, of the units it closed, from the trade's open to that close, and one of the units
 * left, to the trade's close (or open still). Units keep the trade's sign.
 */
export function positionsOf(trades: readonly MoneyTrade[], partials: readonly MoneyPartialClose[]): MoneyTrade[] {
  if (partials.length === 0) return [...trades];
  const byTrade = new Map<string, MoneyPartialClose[]>();
  for (const p of partials) byTrade.set(p.tradeId, [...(byTrade.get(p.tradeId) ?? []), p]);
  return trades.flatMap((trade) => {
    const reductions = byTrade.get(trade.tradeId);
    if (!reductions) return [trade];
    const negative = trade.units.trim().startsWith('-');
    const signed = (units: string) => {
      const size = units.trim().replace(/^[-+]/, '');
      return negative ? `-${size}` : size;
    };
    const pieces = reductions.map((r) => ({ ...trade, units: signed(r.units), state: 'CLOSED', closeTime: r.time }));
    // A closed trade's units are its initial ones, partial closes included; an open trade's are those still open.
    let rest = trade.units;
    if (trade.state === 'CLOSED') for (const piece of pieces) rest = subtractDecimals(rest, piece.units);
    return [...pieces, { ...trade, units: trimDecimal(rest) }];
  });
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
