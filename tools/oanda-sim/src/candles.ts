// GET /v3/instruments/{instrument}/candles: buckets of the price path at any OANDA granularity,
// aligned like OANDA (hour-and-above granularities and D/W/M at dailyAlignment 17:00 New York,
// weeks starting on weeklyAlignment), with no candle where the market was shut, the newest one
// incomplete, and only the requested price components.

import { fixedPoint, parseDateTime, type TimeFormat } from './format';
import type { InstrumentSpec } from './instruments';
import {
  DAY,
  HOUR,
  MINUTE,
  isValidTimeZone,
  lastOpenAtOrBefore,
  localToUtc,
  nextOpenAtOrAfter,
  timeZoneOffset,
} from './market-hours';
import { EPOCH_MS, STEP_MS, isOpenMinute, type Bar, type PricePath } from './price-path';

const FIXED_MS: Record<string, number> = {
  S5: 5_000,
  S10: 10_000,
  S15: 15_000,
  S30: 30_000,
  M1: 60_000,
  M2: 120_000,
  M4: 240_000,
  M5: 300_000,
  M10: 600_000,
  M15: 900_000,
  M30: 1_800_000,
  H1: 3_600_000,
  H2: 7_200_000,
  H3: 10_800_000,
  H4: 14_400_000,
  H6: 21_600_000,
  H8: 28_800_000,
  H12: 43_200_000,
};

export const GRANULARITIES = [...Object.keys(FIXED_MS), 'D', 'W', 'M'] as const;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

const MAX_CANDLES = 5000;

/** A failed candle request: OANDA's 400 body. */
export class CandleRequestError extends Error {}

interface Alignment {
  readonly daily: number;
  readonly tz: string;
  readonly weekly: number;
}

/** Bucket arithmetic for one granularity and alignment. */
class Buckets {
  private readonly fixed: number | undefined;

  constructor(
    readonly granularity: string,
    private readonly align: Alignment,
  ) {
    this.fixed = FIXED_MS[granularity];
  }

  /** Nominal bucket length, for range-size checks. */
  get nominalMs(): number {
    return this.fixed ?? (this.granularity === 'D' ? DAY : this.granularity === 'W' ? 7 * DAY : 30 * DAY);
  }

  private localDay(ms: number): number {
    return Math.floor((ms + timeZoneOffset(this.align.tz, ms) - this.align.daily * HOUR) / DAY);
  }

  private dayStart(localDay: number): number {
    return localToUtc(this.align.tz, localDay * DAY + this.align.daily * HOUR);
  }

  /** The trading day a local day index is named after (a day starting at 17:00 belongs to the next date). */
  private labelShift(): number {
    return this.align.daily > 0 ? 1 : 0;
  }

  private monthStart(year: number, month: number): number {
    return this.dayStart(Math.floor(Date.UTC(year, month, 1) / DAY) - this.labelShift());
  }

  start(ms: number): number {
    const g = this.fixed;
    if (g !== undefined) {
      if (g < HOUR) return Math.floor(ms / g) * g;
      const shift = timeZoneOffset(this.align.tz, ms) - this.align.daily * HOUR;
      return Math.floor((ms + shift) / g) * g - shift;
    }
    const day = this.localDay(ms);
    if (this.granularity === 'D') return this.dayStart(day);
    if (this.granularity === 'W') {
      const weekday = (((day + 4) % 7) + 7) % 7;
      return this.dayStart(day - ((weekday - this.align.weekly + 7) % 7));
    }
    const label = new Date((day + this.labelShift()) * DAY);
    return this.monthStart(label.getUTCFullYear(), label.getUTCMonth());
  }

  next(start: number): number {
    const g = this.fixed;
    if (g !== undefined) return start + g;
    const day = this.localDay(start);
    if (this.granularity === 'D') return this.dayStart(day + 1);
    if (this.granularity === 'W') return this.dayStart(day + 7);
    const label = new Date((day + this.labelShift()) * DAY);
    return this.monthStart(label.getUTCFullYear(), label.getUTCMonth() + 1);
  }

  prev(start: number): number {
    const g = this.fixed;
    if (g !== undefined) return start - g;
    return this.start(start - 1);
  }
}

/** Aggregates the path over [from, to) up to `now`; false when the market never traded in it. */
function aggregate(path: PricePath, from: number, to: number, now: number, out: Bar): boolean {
  const limit = Math.min(to, now);
  const bar: Bar = { o: 0, h: 0, l: 0, c: 0, v: 0 };
  let seen = false;
  const merge = (b: Bar) => {
    if (b.v <= 0) return;
    if (!seen) {
      out.o = b.o;
      out.h = b.h;
      out.l = b.l;
      out.v = 0;
      seen = true;
    }
    if (b.h > out.h) out.h = b.h;
    if (b.l < out.l) out.l = b.l;
    out.c = b.c;
    out.v += b.v;
  };
  let t = from;
  while (t < limit) {
    if (t % HOUR === 0 && t + HOUR <= limit) {
      merge(path.hourBar(t / HOUR, bar, true));
      t += HOUR;
      continue;
    }
    const minute = Math.floor(t / MINUTE);
    if (t % MINUTE === 0 && t + MINUTE <= limit) {
      if (isOpenMinute(minute)) merge(path.minuteBar(minute, bar));
      t += MINUTE;
      continue;
    }
    const step = Math.floor((t - minute * MINUTE) / STEP_MS);
    if (isOpenMinute(minute)) {
      if (t + STEP_MS <= limit) {
        merge(path.stepBar(minute, step, bar));
      } else {
        // The 5-second step still in progress: one tick so far.
        const mid = path.stepMid(minute, step);
        merge({ o: mid, h: mid, l: mid, c: mid, v: 1 });
      }
    }
    t = (Math.floor(t / STEP_MS) + 1) * STEP_MS;
  }
  return seen;
}

export interface CandleQuery {
  readonly granularity: string;
  readonly price: string;
  readonly count?: number;
  readonly from?: number;
  readonly to?: number;
  readonly includeFirst: boolean;
  readonly smooth: boolean;
  readonly alignment: Alignment;
}

function invalid(name: string, detail = ''): CandleRequestError {
  return new CandleRequestError(`Invalid value specified for '${name}'${detail}`);
}

function parseBool(value: string | null, name: string, fallback: boolean): boolean {
  if (value === null) return fallback;
  if (value === 'true' || value === 'True') return true;
  if (value === 'false' || value === 'False') return false;
  throw invalid(name);
}

/** Validates the query string like OANDA; throws CandleRequestError with OANDA's message. */
export function parseCandleQuery(q: URLSearchParams, datetimeFormat: 'RFC3339' | 'UNIX', now: number): CandleQuery {
  const granularity = q.get('granularity') ?? 'S5';
  if (!(GRANULARITIES as readonly string[]).includes(granularity)) throw invalid('granularity');
  const price = q.get('price') ?? 'M';
  if (!/^[MBA]{1,3}$/.test(price) || new Set(price).size !== price.length) throw invalid('price');
  let count: number | undefined;
  const rawCount = q.get('count');
  if (rawCount !== null) {
    if (!/^\d+$/.test(rawCount)) throw invalid('count');
    count = Number(rawCount);
    if (count > MAX_CANDLES) throw new CandleRequestError("Maximum value for 'count' exceeded");
    if (count < 1) throw invalid('count');
  }
  const time = (name: 'from' | 'to'): number | undefined => {
    const raw = q.get(name);
    if (raw === null) return undefined;
    const ms = parseDateTime(raw, datetimeFormat);
    if (ms === undefined) throw invalid(name);
    if (ms > now) throw invalid(name, '. Time is in the future');
    return ms;
  };
  const from = time('from');
  const to = time('to');
  if (from !== undefined && to !== undefined && count !== undefined) throw invalid('count');
  const rawDaily = q.get('dailyAlignment');
  const daily = rawDaily === null ? 17 : Number(rawDaily);
  if (!Number.isInteger(daily) || daily < 0 || daily > 23 || (rawDaily !== null && !/^\d+$/.test(rawDaily)))
    throw invalid('dailyAlignment');
  const tz = q.get('alignmentTimezone') ?? 'America/New_York';
  if (!isValidTimeZone(tz)) throw invalid('alignmentTimezone');
  const weeklyName = q.get('weeklyAlignment') ?? 'Friday';
  const weekly = WEEKDAYS.indexOf(weeklyName as (typeof WEEKDAYS)[number]);
  if (weekly < 0) throw invalid('weeklyAlignment');
  return {
    granularity,
    price,
    count,
    from,
    to,
    includeFirst: parseBool(q.get('includeFirst'), 'includeFirst', true),
    smooth: parseBool(q.get('smooth'), 'smooth', false),
    alignment: { daily, tz, weekly },
  };
}

interface RawCandle {
  readonly time: number;
  readonly complete: boolean;
  readonly bar: Bar;
}

function collect(path: PricePath, query: CandleQuery, now: number): RawCandle[] {
  const buckets = new Buckets(query.granularity, query.alignment);
  const out: RawCandle[] = [];
  const take = (start: number, end: number): boolean => {
    const bar: Bar = { o: 0, h: 0, l: 0, c: 0, v: 0 };
    if (!aggregate(path, start, end, now, bar)) return false;
    out.push({ time: start, complete: end <= now, bar });
    return true;
  };
  if (query.from !== undefined) {
    const to = query.to;
    if (to !== undefined && (to - query.from) / buckets.nominalMs > MAX_CANDLES) {
      throw new CandleRequestError("Maximum value for 'count' exceeded");
    }
    const limit = to === undefined ? (query.count ?? 500) : Infinity;
    let cursor = buckets.start(query.from);
    if (!query.includeFirst) cursor = buckets.next(cursor);
    while (out.length < limit && cursor <= now && (to === undefined || cursor < to)) {
      const end = buckets.next(cursor);
      if (!take(cursor, end)) {
        // Jump over the weekend rather than walking it bucket by bucket.
        const reopen = nextOpenAtOrAfter(end);
        cursor = reopen > end ? Math.max(end, buckets.start(reopen)) : end;
        continue;
      }
      cursor = end;
    }
    return out;
  }
  const count = query.count ?? 500;
  let cursor = buckets.start(query.to === undefined ? now : query.to - 1);
  while (out.length < count && cursor >= EPOCH_MS) {
    if (!take(cursor, buckets.next(cursor))) {
      const lastOpen = lastOpenAtOrBefore(cursor - 1);
      const jump = buckets.start(lastOpen);
      cursor = jump < cursor ? jump : buckets.prev(cursor);
      continue;
    }
    cursor = buckets.prev(cursor);
  }
  return out.reverse();
}

function component(spec: InstrumentSpec, bar: Bar, shift: number): Record<string, string> {
  const p = (ticks: number) => fixedPoint(ticks + shift, spec.displayPrecision);
  return { o: p(bar.o), h: p(bar.h), l: p(bar.l), c: p(bar.c) };
}

/** The 200 body of the candles endpoint. */
export function candlesWire(
  path: PricePath,
  query: CandleQuery,
  now: number,
  fmt: TimeFormat,
): Record<string, unknown> {
  const spec = path.spec;
  const raw = collect(path, query, now);
  const hs = spec.halfSpreadTicks;
  let previousClose: number | undefined;
  const candles = raw.map(({ time, complete, bar }) => {
    if (query.smooth && previousClose !== undefined) {
      bar.o = previousClose;
      if (previousClose > bar.h) bar.h = previousClose;
      if (previousClose < bar.l) bar.l = previousClose;
    }
    previousClose = bar.c;
    const candle: Record<string, unknown> = { complete, volume: bar.v, time: fmt(time, 0) };
    if (query.price.includes('B')) candle.bid = component(spec, bar, -hs);
    if (query.price.includes('M')) candle.mid = component(spec, bar, 0);
    if (query.price.includes('A')) candle.ask = component(spec, bar, hs);
    return candle;
  });
  return { instrument: spec.name, granularity: query.granularity, candles };
}
