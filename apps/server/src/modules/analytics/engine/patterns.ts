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
  /** The percent of the best move the exit kept (domain/risk.ts), for a closed winner with a known MFE; else null. */
  capturePct: number | null;
  /** The trade's stop-loss replacements widened its risk (stopMovedAway in domain/risk.ts). */
  stopWidened: boolean;
}

export type PatternFlags = Record<CoachPattern, number[]>;

/**
 * The whole book as the detectors read it, one typed array per field (100,000 trades without an object each): what
 * PatternTrade says of one trade, with NaN for null. Instruments and currencies are numbered by the caller (any
 * numbering from 0: trades of one instrument share its number).
 */
export interface PatternColumns {
  count: number;
  instrument: Int32Array;
  currency: Int32Array;
  units: Float64Array;
  risk: Float64Array;
  openTime: Float64Array;
  closeTime: Float64Array;
  closed: Uint8Array;
  plMinor: Float64Array;
  capturePct: Float64Array;
  stopWidened: Uint8Array;
}

/** Empty columns for `count` trades (risk, close time and capture NaN: none). */
function patternColumns(count: number): PatternColumns {
  return {
    count,
    instrument: new Int32Array(count),
    currency: new Int32Array(count),
    units: new Float64Array(count),
    risk: new Float64Array(count).fill(Number.NaN),
    openTime: new Float64Array(count),
    closeTime: new Float64Array(count).fill(Number.NaN),
    closed: new Uint8Array(count),
    plMinor: new Float64Array(count),
    capturePct: new Float64Array(count).fill(Number.NaN),
    stopWidened: new Uint8Array(count),
  };
}

/** `trades` as columns, instruments and currencies numbered in the order they first appear. */
function toPatternColumns(trades: readonly PatternTrade[]): PatternColumns {
  const c = patternColumns(trades.length);
  const instruments = new Map<string, number>();
  const currencies = new Map<string, number>();
  const numberOf = (names: Map<string, number>, name: string) => {
    let k = names.get(name);
    if (k === undefined) names.set(name, (k = names.size));
    return k;
  };
  trades.forEach((t, i) => {
    c.instrument[i] = numberOf(instruments, t.instrument);
    c.currency[i] = numberOf(currencies, t.currency);
    c.units[i] = t.units;
    if (t.risk !== null) c.risk[i] = t.risk;
    c.openTime[i] = t.openTime;
    if (t.closeTime !== null) c.closeTime[i] = t.closeTime;
    c.closed[i] = t.closed ? 1 : 0;
    c.plMinor[i] = t.plMinor;
    if (t.capturePct !== null) c.capturePct[i] = t.capturePct;
    c.stopWidened[i] = t.stopWidened ? 1 : 0;
  });
  return c;
}

/** The median of `values` per group (NaN for a group without values, NaN values left out). */
function mediansBy(count: number, groupOf: Int32Array, values: Float64Array): Float64Array {
  let groups = 0;
  for (let i = 0; i < count; i++) if (groupOf[i]! >= groups) groups = groupOf[i]! + 1;
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < count; i++) if (!Number.isNaN(values[i]!)) start[groupOf[i]! + 1]!++;
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, groups);
  const laid = new Float64Array(start[groups]!);
  for (let i = 0; i < count; i++) if (!Number.isNaN(values[i]!)) laid[fill[groupOf[i]!]!++] = values[i]!;
  const medians = new Float64Array(groups);
  for (let g = 0; g < groups; g++)
    medians[g] = medianInPlace(laid.subarray(start[g], start[g + 1]), start[g + 1]! - start[g]!);
  return medians;
}

/** `value` over the usual one (the value itself when there is no usual one above 0). */
const relative = (value: number, usual: number) => (usual > 0 ? value / usual : value);

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
  return detectPatternColumns(toPatternColumns(trades), thresholds, timeZone);
}

/** detectPatterns over the book as columns (the coach's 100,000-trade read). */
export function detectPatternColumns(
  book: PatternColumns,
  thresholds: CoachThresholds,
  timeZone: string,
): PatternFlags {
  const n = book.count;
  const { closed, closeTime, openTime, plMinor } = book;
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
  const medianUnits = mediansBy(n, book.instrument, book.units);
  const medianRisk = mediansBy(n, book.instrument, book.risk);
  const size = new Float64Array(n);
  const risk = new Float64Array(n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    const instrument = book.instrument[i]!;
    size[i] = relative(book.units[i]!, medianUnits[instrument]!);
    if (!Number.isNaN(book.risk[i]!)) risk[i] = relative(book.risk[i]!, medianRisk[instrument]!);
  }
  const larger = (i: number, than: number) =>
    size[i]! > size[than]! || (!Number.isNaN(risk[i]!) && !Number.isNaN(risk[than]!) && risk[i]! > risk[than]!);

  // Open order and close order (closed trades only), with their times laid out in that order.
  const byOpen = orderByTime(openTime, n, (a, b) => a - b);
  const openSorted = Float64Array.from(byOpen, (i) => openTime[i]!);
  let closedCount = 0;
  for (let i = 0; i < n; i++) if (closed[i] === 1 && !Number.isNaN(closeTime[i]!)) closedCount++;
  const closedIdx = new Int32Array(closedCount);
  const closes = new Float64Array(closedCount);
  for (let i = 0, k = 0; i < n; i++)
    if (closed[i] === 1 && !Number.isNaN(closeTime[i]!)) {
      closedIdx[k] = i;
      closes[k++] = closeTime[i]!;
    }
  const byClose = orderByTime(closes, closedCount, (a, b) => closedIdx[a]! - closedIdx[b]!);
  for (let k = 0; k < closedCount; k++) byClose[k] = closedIdx[byClose[k]!]!;
  const closeSorted = Float64Array.from(byClose, (i) => closeTime[i]!);

  // Revenge trading: opened within the window after a loss's close, larger in size or in risk than that loss.
  const window = thresholds.revengeMinutes * MINUTE_MS;
  for (let k = 0; k < closedCount; k++) {
    const loss = byClose[k]!;
    if (plMinor[loss]! >= 0) continue;
    const closedAt = closeSorted[k]!;
    for (let r = lowerBound(openSorted, n, closedAt); r < n && openSorted[r]! <= closedAt + window; r++) {
      const i = byOpen[r]!;
      if (i !== loss && larger(i, loss)) flags.revenge_trading[i] = 1;
    }
  }

  // Size escalation and off-session: walk the trades in open order, taking in each trade closed before the open.
  const lossStreak = new Int32Array(closedCount);
  for (let k = 0; k < closedCount; k++)
    lossStreak[k] = plMinor[byClose[k]!]! < 0 ? (k > 0 ? lossStreak[k - 1]! : 0) + 1 : 0;
  // Per account currency and session: earlier closed trades and their summed P/L (minor units, exact integers).
  let currencies = 0;
  const slotOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = book.currency[i]!;
    if (c >= currencies) currencies = c + 1;
    slotOf[i] = c * SESSION_NAMES.length + sessionIndexAt(openTime[i]!);
  }
  const sessionCount = new Float64Array(currencies * SESSION_NAMES.length);
  const sessionSum = new Float64Array(sessionCount.length);
  let taken = 0;
  for (let r = 0; r < n; r++) {
    const i = byOpen[r]!;
    const opened = openTime[i]!;
    while (taken < closedCount && closeSorted[taken]! < opened) {
      const c = byClose[taken]!;
      sessionCount[slotOf[c]!]! += 1;
      sessionSum[slotOf[c]!]! += plMinor[c]!;
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
    const day = localDayOf(clock.local(openTime[i]!));
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
  const winnerHolds = new Float64Array(closedCount);
  let winners = 0;
  for (const i of closedIdx) if (plMinor[i]! > 0) winnerHolds[winners++] = closeTime[i]! - openTime[i]!;
  if (winners >= THRESHOLDS.holdingMinTrades) {
    const usual = medianInPlace(winnerHolds, winners);
    for (const i of closedIdx)
      if (plMinor[i]! < 0 && closeTime[i]! - openTime[i]! >= thresholds.holdingRatio * usual)
        flags.holding_losers[i] = 1;
  }

  for (let i = 0; i < n; i++) {
    if (book.stopWidened[i] === 1) flags.stop_moved_away[i] = 1;
    // A NaN capture (none known) is below no threshold.
    if (closed[i] === 1 && plMinor[i]! > 0 && book.capturePct[i]! < thresholds.earlyExitCapturePct)
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
