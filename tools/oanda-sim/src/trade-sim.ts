// Walks a trade forward along the price path to find when its take-profit, stop-loss or trailing
// stop is first touched. Work is done in "favourable" terms F = dir × mid, so one code path serves
// longs and shorts: a take-profit fires when F rises to T, a stop when F falls to S, a trailing
// stop when F falls to (best F so far) − distance. Whole hours and minutes that cannot trigger are
// skipped; only the bar where something happens is examined at 5-second resolution.

import { isOpenMinute, STEP_MS, STEPS_PER_MINUTE, type Bar, type PricePath } from './price-path';
import { hash3 } from './rng';

const STEPS_PER_HOUR = STEPS_PER_MINUTE * 60;

export interface Levels {
  /** Take-profit price on the closing side (bid for longs, ask for shorts), ticks. */
  readonly tp?: number;
  /** Stop-loss price on the closing side, ticks. */
  readonly sl?: number;
  /** Trailing-stop distance, ticks. */
  readonly tslDistance?: number;
}

interface Trigger {
  readonly kind: 'TAKE_PROFIT' | 'STOP_LOSS' | 'TRAILING_STOP_LOSS';
  /** Instant of the fill, ms. */
  readonly at: number;
  /** Fill price on the closing side, ticks. */
  readonly price: number;
  /** TSL: the trailing stop value that filled. */
  readonly trailingValue?: number;
}

export interface ScanResult {
  readonly trigger?: Trigger;
  /** Best favourable mid reached (for an open trailing stop's current value). */
  readonly best: number;
}

/**
 * Scans from the 5-second step after `fromMs` up to, but excluding, the step containing `toMs`.
 * `startBest` is the favourable mid at the open.
 */
export function scanTrade(
  path: PricePath,
  dir: 1 | -1,
  levels: Levels,
  fromMs: number,
  toMs: number,
  startBest: number,
  salt: number,
): ScanResult {
  const hs = path.spec.halfSpreadTicks;
  // Closing-side levels → favourable mid thresholds (closing side = mid − dir × hs).
  const T = levels.tp === undefined ? Infinity : dir * (levels.tp + dir * hs);
  const S = levels.sl === undefined ? -Infinity : dir * (levels.sl + dir * hs);
  const D = levels.tslDistance ?? Infinity;
  let B = startBest;
  const bar: Bar = { o: 0, h: 0, l: 0, c: 0, v: 0 };
  let s = Math.floor(fromMs / STEP_MS) + 1;
  const end = Math.floor(toMs / STEP_MS);
  let hourDescended = -1;
  let minuteDescended = -1;

  const clear = (b: Bar): boolean => {
    const fh = dir > 0 ? b.h : -b.l;
    const fl = dir > 0 ? b.l : -b.h;
    if (fh >= T || fl <= S || fl <= B - D) return false;
    // A trailing stop can fire inside a bar whose own rally lifted the stop above its low.
    if (D !== Infinity && fh - fl >= D && fh > B) return false;
    if (fh > B) B = fh;
    return true;
  };

  // Without a trailing stop, a whole bar that cannot trigger may be skipped even when the trade
  // opened inside it: the earlier part only widens the range, so the decision stays safe.
  const wholeBarsOk = D === Infinity;
  while (s < end) {
    const hourStart = s - (s % STEPS_PER_HOUR);
    if (hourStart !== hourDescended && hourStart + STEPS_PER_HOUR <= end && (s === hourStart || wholeBarsOk)) {
      path.hourBar(hourStart / STEPS_PER_HOUR, bar);
      if (bar.v === 0 || clear(bar)) {
        s = hourStart + STEPS_PER_HOUR;
        continue;
      }
      hourDescended = hourStart;
    }
    const minute = Math.floor(s / STEPS_PER_MINUTE);
    const minuteStart = minute * STEPS_PER_MINUTE;
    if (
      minuteStart !== minuteDescended &&
      minuteStart + STEPS_PER_MINUTE <= end &&
      (s === minuteStart || wholeBarsOk)
    ) {
      if (!isOpenMinute(minute)) {
        s = minuteStart + STEPS_PER_MINUTE;
        continue;
      }
      path.minuteBar(minute, bar);
      if (clear(bar)) {
        s = minuteStart + STEPS_PER_MINUTE;
        continue;
      }
      minuteDescended = minuteStart;
    }
    if (!isOpenMinute(minute)) {
      s++;
      continue;
    }
    path.stepBar(minute, s - minuteStart, bar);
    const trigger = resolveStep(bar, dir, hs, T, S, B, D, s, salt);
    if (trigger) return { trigger, best: B };
    const fh = dir > 0 ? bar.h : -bar.l;
    if (fh > B) B = fh;
    s++;
  }
  return { best: B };
}

function resolveStep(
  bar: Bar,
  dir: 1 | -1,
  hs: number,
  T: number,
  S: number,
  B: number,
  D: number,
  step: number,
  salt: number,
): Trigger | undefined {
  const fo = dir * bar.o;
  const fh = dir > 0 ? bar.h : -bar.l;
  const fl = dir > 0 ? bar.l : -bar.h;
  const L = B - D;
  const at = step * STEP_MS + (hash3(salt, step, 23) % (STEP_MS - 1)) + 1;
  const closing = (favourableMid: number): number => dir * favourableMid - dir * hs;
  // Gaps: the bar opens beyond a level, so the order fills at the open.
  if (fo >= T) return { kind: 'TAKE_PROFIT', at, price: closing(fo) };
  if (fo <= S) return { kind: 'STOP_LOSS', at, price: closing(fo) };
  if (fo <= L) return { kind: 'TRAILING_STOP_LOSS', at, price: closing(fo), trailingValue: closing(L) };
  const candidates: { kind: Trigger['kind']; level: number; distance: number }[] = [];
  if (fh >= T) candidates.push({ kind: 'TAKE_PROFIT', level: T, distance: T - fo });
  if (fl <= S) candidates.push({ kind: 'STOP_LOSS', level: S, distance: fo - S });
  if (fl <= L) candidates.push({ kind: 'TRAILING_STOP_LOSS', level: L, distance: fo - L });
  if (candidates.length === 0) return undefined;
  candidates.sort((a, b) => a.distance - b.distance);
  const first = candidates[0];
  if (!first) return undefined;
  if (first.kind === 'TRAILING_STOP_LOSS') {
    const value = closing(first.level);
    return { kind: first.kind, at, price: value, trailingValue: value };
  }
  let fill = first.level;
  // Stops sometimes slip a tick when the bar traded through the level.
  if (first.kind === 'STOP_LOSS' && fl <= fill - 1 && hash3(salt, step, 29) % 3 === 0) fill -= 1;
  return { kind: first.kind, at, price: closing(fill) };
}

/** The favourable range (min, max of dir × mid) over [fromMs, toMs), read from hour and minute bars. */
export function favourableRange(
  path: PricePath,
  dir: 1 | -1,
  fromMs: number,
  toMs: number,
): { min: number; max: number } {
  const bar: Bar = { o: 0, h: 0, l: 0, c: 0, v: 0 };
  let min = Infinity;
  let max = -Infinity;
  const take = (b: Bar) => {
    const fh = dir > 0 ? b.h : -b.l;
    const fl = dir > 0 ? b.l : -b.h;
    if (fh > max) max = fh;
    if (fl < min) min = fl;
  };
  let m = Math.floor(fromMs / 60_000);
  const end = Math.ceil(toMs / 60_000);
  while (m < end) {
    if (m % 60 === 0 && m + 60 <= end) {
      path.hourBar(m / 60, bar);
      if (bar.v > 0) take(bar);
      m += 60;
      continue;
    }
    if (isOpenMinute(m)) take(path.minuteBar(m, bar));
    m++;
  }
  return { min, max };
}
