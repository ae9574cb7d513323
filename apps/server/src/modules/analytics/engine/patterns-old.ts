/**
 * The coach's behaviour patterns (METRICS.md, "Behaviour patterns"): pure detectors over a trader's whole book that
 * return the trades each flags, by their index in the input. behavior.ts answers whether a pattern shows in the
 * aggregates of the Overview; these name the trades, with the trader's own thresholds, for the coach, the trade
 * list's `pattern` filter and the trade modal.
 */
import type { CoachPattern, CoachThresholds } from '@pipsense/contract';
import { localDayOf, MINUTE_MS, zoneClock } from '../../../domain/calendar';
import { sessionIndexAt, SESSION_NAMES } from './sessions';
import { medianInPlace, orderByTime } from './stats';
import { THRESHOLDS } from './behavior';

/** One trade as the detectors read it: numbers and shared strings only (100,000 of them at once). */
export interface PatternTrade {
  instrument: string;
  /** The account's currency ('' when not known): results are compared within one currency, never added across. */
  currency: string;
  /** |initial units|. */
  units: number;
  /** |entry − initial stop| × units, in price × units; null without an initial stop (domain/risk.ts). */
  risk: number | null;
  /** Epoch milliseconds. */
  openTime: number;
  /** Epoch milliseconds; null while open. */
  closeTime: number | null;
  closed: boolean;
  /** Realized P/L of a closed trade in integer ten-thousandths of its currency (domain/money.ts); 0 while open. */
  plMinor: number;
  /** The percent of the most favourable move the exit kept, for a closed winner with a known MFE; else null. */
  capturePct: number | null;
  /** The trade's stop-loss replacements widened its risk (stopMovedAway below). */
  stopWidened: boolean;
}

export type PatternFlags = Record<CoachPattern, number[]>;

/**
 * Whether a stop was ever replaced farther from the entry on the losing side than the stop before it: the stop
 * levels of the trade's stop-loss orders in the order placed, the entry and the side. A stop at or beyond the entry
 * on the profit side risks nothing (distance ≤ 0); moving it back into risk counts, trailing it never does.
 */
export function stopMovedAway(entry: number, long: boolean, stops: readonly number[]): boolean {
  const riskOf = (stop: number) => (long ? entry - stop : stop - entry);
  for (let k = 1; k < stops.length; k++) {
    const now = riskOf(stops[k]!);
    if (now > 0 && now > riskOf(stops[k - 1]!)) return true;
  }
  return false;
}

/** The median of `values` per key (NaN for a key without values). */
function mediansBy(count: number, keyOf: (i: number) => string, valueOf: (i: number) => number | null) {
  const groups = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    const value = valueOf(i);
    if (value === null) continue;
    const key = keyOf(i);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  const medians = new Map<string, number>();
  for (const [key, values] of groups) medians.set(key, medianInPlace(Float64Array.from(values), values.length));
  return medians;
}

/** `value` over the usual one (the value itself when there is no usual one above 0). */
const relative = (value: number, usual: number | undefined) =>
  usual !== undefined && usual > 0 ? value / usual : value;

/** The first position of `sorted[0 … n−1]` (ascending) at or above `at`. */
function lowerBound(sorted: Float64Array, n: number, at: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Nearest-rank percentile of `counts` (1 ≤ p ≤ 100): the smallest count at least p % of the values are at or under. */
function percentileOf(counts: readonly number[], p: number): number {
  const sorted = [...counts].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Every pattern's flagged trades (indexes into `trades`, ascending). `timeZone` is the trader's: the local day of
 * overtrading. Sessions follow the market centres' clocks (sessions.ts), whatever the trader's zone.
 */
export function detectPatterns(
  trades: readonly PatternTrade[],
  thresholds: CoachThresholds,
  timeZone: string,
): PatternFlags {
  const n = trades.length;
  const flags: Record<CoachPattern, Uint8Array> = {
    revenge_trading: new Uint8Array(n),
    overtrading: new Uint8Array(n),
    size_escalation: new Uint8Array(n),
    off_session: new Uint8Array(n),
    holding_losers: new Uint8Array(n),
    stop_moved_away: new Uint8Array(n),
    early_exit: new Uint8Array(n),
  };

  // Sizes and risks relative to the trader's median on the instrument, so that gold and EUR_USD compare.
  const medianUnits = mediansBy(
    n,
    (i) => trades[i]!.instrument,
    (i) => trades[i]!.units,
  );
  const medianRisk = mediansBy(
    n,
    (i) => trades[i]!.instrument,
    (i) => trades[i]!.risk,
  );
  const size = new Float64Array(n);
  const risk = new Float64Array(n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    const t = trades[i]!;
    size[i] = relative(t.units, medianUnits.get(t.instrument));
    if (t.risk !== null) risk[i] = relative(t.risk, medianRisk.get(t.instrument));
  }
  const larger = (i: number, than: number) =>
    size[i]! > size[than]! || (!Number.isNaN(risk[i]!) && !Number.isNaN(risk[than]!) && risk[i]! > risk[than]!);

  // Open order and close order (closed trades only), with their times laid out in that order.
  const opens = Float64Array.from(trades, (t) => t.openTime);
  const byOpen = orderByTime(opens, n, (a, b) => a - b);
  const openSorted = Float64Array.from(byOpen, (i) => opens[i]!);
  const closedIdx: number[] = [];
  for (let i = 0; i < n; i++) if (trades[i]!.closed && trades[i]!.closeTime !== null) closedIdx.push(i);
  const closes = Float64Array.from(closedIdx, (i) => trades[i]!.closeTime!);
  const byClose = Array.from(
    orderByTime(closes, closedIdx.length, (a, b) => closedIdx[a]! - closedIdx[b]!),
    (k) => closedIdx[k]!,
  );
  const closeSorted = Float64Array.from(byClose, (i) => trades[i]!.closeTime!);

  // Revenge trading: opened within the window after a loss's close, larger in size or in risk than that loss.
  const window = thresholds.revengeMinutes * MINUTE_MS;
  for (const loss of byClose) {
    if (trades[loss]!.plMinor >= 0) continue;
    const closed = trades[loss]!.closeTime!;
    for (let r = lowerBound(openSorted, n, closed); r < n && openSorted[r]! <= closed + window; r++) {
      const i = byOpen[r]!;
      if (i !== loss && larger(i, loss)) flags.revenge_trading[i] = 1;
    }
  }

  // Size escalation and off-session: walk the trades in open order, taking in each trade closed before the open.
  const lossStreak = new Int32Array(byClose.length);
  for (let k = 0; k < byClose.length; k++)
    lossStreak[k] = trades[byClose[k]!]!.plMinor < 0 ? (k > 0 ? lossStreak[k - 1]! : 0) + 1 : 0;
  // Per account currency and session: earlier closed trades and their summed P/L (minor units, exact integers).
  const currencyIndex = new Map<string, number>();
  const slotOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const currency = trades[i]!.currency;
    let c = currencyIndex.get(currency);
    if (c === undefined) currencyIndex.set(currency, (c = currencyIndex.size));
    slotOf[i] = c * SESSION_NAMES.length + sessionIndexAt(trades[i]!.openTime);
  }
  const sessionCount = new Float64Array(currencyIndex.size * SESSION_NAMES.length);
  const sessionSum = new Float64Array(sessionCount.length);
  let taken = 0;
  for (let r = 0; r < n; r++) {
    const i = byOpen[r]!;
    const t = trades[i]!;
    while (taken < byClose.length && closeSorted[taken]! < t.openTime) {
      const c = byClose[taken]!;
      sessionCount[slotOf[c]!]! += 1;
      sessionSum[slotOf[c]!]! += trades[c]!.plMinor;
      taken++;
    }
    if (taken > 0 && lossStreak[taken - 1]! >= thresholds.escalationLosses && larger(i, byClose[taken - 1]!))
      flags.size_escalation[i] = 1;
    if (sessionCount[slotOf[i]!]! >= thresholds.offSessionMinTrades && sessionSum[slotOf[i]!]! <= 0)
      flags.off_session[i] = 1;
  }

  // Overtrading: on a local day with more trades than the trader's percentile of trades per active day, the trades
  // opened beyond that count.
  const clock = zoneClock(timeZone);
  const byDay = new Map<number, number[]>();
  for (let r = 0; r < n; r++) {
    const i = byOpen[r]!;
    const day = localDayOf(clock.local(trades[i]!.openTime));
    const list = byDay.get(day);
    if (list) list.push(i);
    else byDay.set(day, [i]);
  }
  if (byDay.size >= THRESHOLDS.overtradingMinActiveDays) {
    const usual = percentileOf(
      [...byDay.values()].map((d) => d.length),
      thresholds.overtradingPercentile,
    );
    for (const list of byDay.values()) for (let k = usual; k < list.length; k++) flags.overtrading[list[k]!] = 1;
  }

  // Holding losers: a loser held at least the ratio times the winners' median hold.
  const winnerHolds: number[] = [];
  for (const i of closedIdx) if (trades[i]!.plMinor > 0) winnerHolds.push(trades[i]!.closeTime! - trades[i]!.openTime);
  if (winnerHolds.length >= THRESHOLDS.holdingMinTrades) {
    const usual = medianInPlace(Float64Array.from(winnerHolds), winnerHolds.length);
    for (const i of closedIdx) {
      const t = trades[i]!;
      if (t.plMinor < 0 && t.closeTime! - t.openTime >= thresholds.holdingRatio * usual) flags.holding_losers[i] = 1;
    }
  }

  for (let i = 0; i < n; i++) {
    const t = trades[i]!;
    if (t.stopWidened) flags.stop_moved_away[i] = 1;
    if (t.closed && t.plMinor > 0 && t.capturePct !== null && t.capturePct < thresholds.earlyExitCapturePct)
      flags.early_exit[i] = 1;
  }

  const out = {} as PatternFlags;
  for (const [pattern, marks] of Object.entries(flags) as Array<[CoachPattern, Uint8Array]>) {
    const list: number[] = [];
    for (let i = 0; i < n; i++) if (marks[i] === 1) list.push(i);
    out[pattern] = list;
  }
  return out;
}

/**
 * The percent of the most favourable move a closed trade's exit kept: (close − entry) / (MFE − entry), in the
 * trade's direction; null when the price never moved in its favour.
 */
export function capturePctOf(entry: number, close: number, mfe: number, long: boolean): number | null {
  const direction = long ? 1 : -1;
  const best = (mfe - entry) * direction;
  if (!(best > 0)) return null;
  return (((close - entry) * direction) / best) * 100;
}

const sessions = SESSION_NAMES.join(', ');

/** Each pattern's definition in words, with the trader's thresholds written in (METRICS.md says the same). */
export function patternDefinition(pattern: CoachPattern, t: CoachThresholds): string {
  switch (pattern) {
    case 'revenge_trading':
      return `A trade opened within ${t.revengeMinutes} minutes after a losing trade closed, larger than that loss in size or in risk (each against your median on its instrument).`;
    case 'overtrading':
      return `The trades of a day beyond your ${t.overtradingPercentile}th percentile of trades per active day (your time zone), counted in the order opened.`;
    case 'size_escalation':
      return `A trade larger in size or risk than the trade before it, opened after ${t.escalationLosses} or more losses in a row.`;
    case 'off_session':
      return `A trade in a session (${sessions}) whose ${t.offSessionMinTrades} or more earlier closed trades, in the same currency, did not make money: judged from trades closed before it opened.`;
    case 'holding_losers':
      return `A losing trade held at least ${t.holdingRatio} times as long as your winners' median holding time.`;
    case 'stop_moved_away':
      return 'A trade whose stop-loss was replaced farther from the entry, on the losing side, than the stop before it.';
    case 'early_exit':
      return `A winning trade closed with less than ${t.earlyExitCapturePct} % of its most favourable move kept.`;
  }
}
