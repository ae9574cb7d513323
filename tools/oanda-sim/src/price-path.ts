// A deterministic mid-price path per instrument, defined for every instant since EPOCH_MS and
// independent of "now". It is built top-down so that coarse questions stay cheap:
//   day    – a mean-reverting walk gives one anchor per UTC day;
//   hour   – a bridge between consecutive anchors gives 24 hourly closes, and hashes give each
//            hour its high and low;
//   minute – generated only for hours someone looks into: a bridge from the hour's open to its
//            close, squeezed inside the hour's high/low, with one minute touching each extreme;
//   5 s    – twelve steps per minute, again touching the minute's extremes exactly.
// So every coarser bar is exactly the aggregate of its finer bars, and candles of any
// granularity and the fill prices of trades all agree.

import { DAY, HOUR, MINUTE, lastOpenAtOrBefore, newYorkOffset } from './market-hours';
import type { InstrumentSpec } from './instruments';
import { Rng, hash3, mix32 } from './rng';

export const EPOCH_MS = Date.UTC(2012, 0, 1);
const EPOCH_DAY = EPOCH_MS / DAY;
export const STEP_MS = 5000;
export const STEPS_PER_MINUTE = 12;
const MINUTES_PER_DAY = 1440;
const MEAN_REVERSION = 0.004;
const SQRT60 = Math.sqrt(60);

/** Relative activity by UTC hour: quiet late New York and Asia, busiest at the London/New York overlap. */
const SESSION = [
  0.55, 0.55, 0.55, 0.55, 0.55, 0.55, 0.8, 1.25, 1.25, 1.25, 1.25, 1.25, 1.5, 1.5, 1.5, 1.5, 1.2, 0.8, 0.8, 0.8, 0.8,
  0.45, 0.45, 0.45,
] as const;

/** Relative market activity (volatility and volume) in a UTC hour, 0.45–1.5. */
export function session(hour: number): number {
  return SESSION[hour] ?? 1;
}

const openMaskCache = new Map<number, number>();

const ALL_HOURS = 0xffffff;

/**
 * Bit h set when UTC hour h of the day is a trading hour. The week closes Friday and opens Sunday
 * at 17:00 New York, i.e. 21:00Z in summer and 22:00Z in winter; DST switches happen early on
 * Sunday mornings while the market is shut, so the offset at midday holds for the whole day.
 */
function dayOpenMask(absDay: number): number {
  let mask = openMaskCache.get(absDay);
  if (mask === undefined) {
    const weekday = (((absDay + 4) % 7) + 7) % 7;
    const edge = 17 - newYorkOffset(absDay * DAY + 12 * HOUR) / HOUR;
    if (weekday === 6) mask = 0;
    else if (weekday === 5) mask = (1 << edge) - 1;
    else if (weekday === 0) mask = ALL_HOURS & ~((1 << edge) - 1);
    else mask = ALL_HOURS;
    openMaskCache.set(absDay, mask);
  }
  return mask;
}

export function isOpenMinute(minute: number): boolean {
  const absDay = Math.floor(minute / MINUTES_PER_DAY);
  const hour = Math.floor((minute - absDay * MINUTES_PER_DAY) / 60);
  return ((dayOpenMask(absDay) >> hour) & 1) === 1;
}

function popcount24(mask: number): number {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
}

/** Days per storage chunk: one allocation per 16 days keeps allocation and GC work negligible. */
const CHUNK_DAYS = 16;

interface Chunk {
  /** 1 once the day's hours exist. */
  readonly ready: Uint8Array;
  /** Mid at 00:00Z of each day (the open of hour 0), ticks. */
  readonly opens: Int32Array;
  /** Per day and UTC hour: close, high, low (ticks). */
  readonly hours: Int32Array;
  /** Per day and hour, the minutes (0..59) carrying the hour's high and low. */
  readonly extremes: Uint8Array;
  /** Per day and hour, total tick volume (−1 until computed). */
  readonly volumes: Int32Array;
  /** Per day, bit h set once hour h's minute closes exist. */
  readonly minuteMasks: Int32Array;
  /** Minute closes, 1440 per day, allocated on first use. */
  minutes: Int32Array | undefined;
}

function newChunk(): Chunk {
  return {
    ready: new Uint8Array(CHUNK_DAYS),
    opens: new Int32Array(CHUNK_DAYS),
    hours: new Int32Array(CHUNK_DAYS * 72),
    extremes: new Uint8Array(CHUNK_DAYS * 48),
    volumes: new Int32Array(CHUNK_DAYS * 24).fill(-1),
    minuteMasks: new Int32Array(CHUNK_DAYS),
    minutes: undefined,
  };
}

/** OHLC + volume of one bucket, in ticks. */
export interface Bar {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

const scratch = new Float64Array(128);

export class PricePath {
  private readonly salt: number;
  private anchors = new Float64Array(1024);
  private anchorCount = 0;
  private readonly anchorRng: Rng;
  private readonly chunks: (Chunk | undefined)[] = [];
  /** Scratch for sub-steps: p0..p12 then the steps holding the minute's high and low. */
  private readonly steps = new Int32Array(STEPS_PER_MINUTE + 3);

  constructor(
    readonly spec: InstrumentSpec,
    seed: number,
  ) {
    this.salt = mix32(Math.imul(seed | 0, 31) + spec.index + 1);
    this.anchorRng = new Rng(this.salt, 1);
    this.anchors[0] = Math.log(spec.referencePrice) + this.anchorRng.normal() * 0.03;
    this.anchorCount = 1;
  }

  /** Log mid price at 00:00Z of day `d` (days since EPOCH). */
  private anchor(d: number): number {
    while (this.anchorCount <= d) {
      if (this.anchorCount >= this.anchors.length) {
        const grown = new Float64Array(this.anchors.length * 2);
        grown.set(this.anchors);
        this.anchors = grown;
      }
      const prev = this.anchors[this.anchorCount - 1] ?? 0;
      const openShare = popcount24(dayOpenMask(EPOCH_DAY + this.anchorCount - 1)) / 24;
      const reversion = MEAN_REVERSION * (Math.log(this.spec.referencePrice) - prev);
      this.anchors[this.anchorCount] =
        prev + reversion + this.spec.dailyVol * Math.sqrt(openShare) * this.anchorRng.normal();
      this.anchorCount++;
    }
    return this.anchors[d] ?? 0;
  }

  private unit(a: number, b: number): number {
    return hash3(this.salt, a, b) / 4294967296;
  }

  /** Standard-deviation-one noise from one hash (triangular: cheap and bounded). */
  private noise(a: number, b: number): number {
    const h = mix32((this.salt ^ Math.imul(a | 0, 0x9e3779b1)) + Math.imul(b, 0x632be5ab));
    return (((h & 0xffff) + (h >>> 16)) / 65536 - 1) * 2.449489742783178;
  }

  /** The chunk holding `absDay`, with that day's hours generated; undefined before the epoch. */
  private day(absDay: number): Chunk | undefined {
    const d = absDay - EPOCH_DAY;
    if (d < 0) return undefined;
    const index = Math.floor(d / CHUNK_DAYS);
    let chunk = this.chunks[index];
    if (!chunk) {
      chunk = newChunk();
      this.chunks[index] = chunk;
    }
    const off = d - index * CHUNK_DAYS;
    if (chunk.ready[off] === 1) return chunk;
    const mask = dayOpenMask(absDay);
    const scale = this.spec.scale;
    const p0 = Math.exp(this.anchor(d)) * scale;
    const p1 = Math.exp(this.anchor(d + 1)) * scale;
    // Bridge over the 24 hours, variance spread by activity so quiet and closed hours barely move.
    let w = 0;
    let v = 0;
    const sigmas = scratch;
    for (let hour = 0; hour < 24; hour++) {
      const s = ((mask >> hour) & 1 ? this.spec.minuteVol * session(hour) : this.spec.minuteVol * 0.01) * SQRT60;
      sigmas[hour] = s;
      v += s * s;
      w += s * this.noise(absDay * 24 + hour, 1);
      sigmas[24 + hour] = w;
      sigmas[48 + hour] = v;
    }
    const hours = chunk.hours;
    const base = off * 72;
    let open = Math.round(p0);
    for (let hour = 0; hour < 24; hour++) {
      const share = (sigmas[48 + hour] ?? 0) / v;
      const close = Math.round(p0 + (p1 - p0) * share + ((sigmas[24 + hour] ?? 0) - share * w) * p0);
      const sigmaTicks = Math.max(3, (sigmas[hour] ?? 0) * p0);
      const hourIndex = absDay * 24 + hour;
      const up = this.unit(hourIndex, 2);
      const down = this.unit(hourIndex, 3);
      hours[base + hour * 3] = close;
      hours[base + hour * 3 + 1] = Math.max(open, close) + Math.floor(sigmaTicks * (0.08 + 0.75 * up * up)) + 1;
      hours[base + hour * 3 + 2] = Math.min(open, close) - Math.floor(sigmaTicks * (0.08 + 0.75 * down * down)) - 1;
      open = close;
    }
    chunk.opens[off] = Math.round(p0);
    chunk.ready[off] = 1;
    return chunk;
  }

  private static offset(absDay: number): number {
    const d = absDay - EPOCH_DAY;
    return d - Math.floor(d / CHUNK_DAYS) * CHUNK_DAYS;
  }

  private hourOpen(chunk: Chunk, absDay: number, hour: number): number {
    const off = PricePath.offset(absDay);
    if (hour > 0) return chunk.hours[off * 72 + (hour - 1) * 3] ?? 0;
    const prev = this.day(absDay - 1);
    return prev ? (prev.hours[PricePath.offset(absDay - 1) * 72 + 69] ?? 0) : (chunk.opens[off] ?? 0);
  }

  /** Fills the minute closes of one hour: a bridge from open to close squeezed inside the hour's range. */
  private minutesOf(chunk: Chunk, absDay: number, hour: number): Int32Array {
    let minutes = chunk.minutes;
    if (!minutes) {
      minutes = new Int32Array(CHUNK_DAYS * MINUTES_PER_DAY);
      chunk.minutes = minutes;
    }
    const off = PricePath.offset(absDay);
    if (((chunk.minuteMasks[off] ?? 0) >> hour) & 1) return minutes;
    const o = this.hourOpen(chunk, absDay, hour);
    const hb = off * 72 + hour * 3;
    const c = chunk.hours[hb] ?? o;
    const hi = chunk.hours[hb + 1] ?? o;
    const lo = chunk.hours[hb + 2] ?? o;
    const hourIndex = absDay * 24 + hour;
    const b = scratch;
    let w = 0;
    for (let k = 1; k <= 60; k++) {
      w += this.noise(hourIndex, 100 + k);
      b[k] = w;
    }
    let up = 0;
    let down = 0;
    for (let k = 1; k < 60; k++) {
      const x = (b[k] ?? 0) - (k / 60) * w;
      b[k] = x;
      if (x > up) up = x;
      if (x < down) down = x;
    }
    // Stretch each side of the bridge so it reaches most of the way to the hour's extremes.
    const reach = 0.55 + 0.4 * this.unit(hourIndex, 4);
    const su = up > 0 ? ((hi - Math.max(o, c)) * reach) / up : 0;
    const sd = down < 0 ? ((Math.min(o, c) - lo) * reach) / -down : 0;
    const base = off * MINUTES_PER_DAY + hour * 60;
    let prev = o;
    let kh = 0;
    let kl = 0;
    let best = -Infinity;
    let worst = Infinity;
    for (let k = 1; k <= 60; k++) {
      let x: number;
      if (k === 60) {
        x = c;
      } else {
        const n = b[k] ?? 0;
        x = Math.round(o + ((c - o) * k) / 60 + (n > 0 ? n * su : n * sd));
        if (x > hi) x = hi;
        if (x < lo) x = lo;
      }
      minutes[base + k - 1] = x;
      if ((x > prev ? x : prev) > best) {
        best = x > prev ? x : prev;
        kh = k - 1;
      }
      if ((x < prev ? x : prev) < worst) {
        worst = x < prev ? x : prev;
        kl = k - 1;
      }
      prev = x;
    }
    chunk.extremes[off * 48 + hour * 2] = kh;
    chunk.extremes[off * 48 + hour * 2 + 1] = kl;
    chunk.minuteMasks[off] = (chunk.minuteMasks[off] ?? 0) | (1 << hour);
    return minutes;
  }

  /** Close of the minute starting at minute × 60 s, in ticks; 0 before the epoch. */
  close(minute: number): number {
    const absDay = Math.floor(minute / MINUTES_PER_DAY);
    const chunk = this.day(absDay);
    if (!chunk) return 0;
    const k = minute - absDay * MINUTES_PER_DAY;
    return this.minutesOf(chunk, absDay, Math.floor(k / 60))[PricePath.offset(absDay) * MINUTES_PER_DAY + k] ?? 0;
  }

  open(minute: number): number {
    const prev = this.close(minute - 1);
    return prev === 0 ? this.close(minute) : prev;
  }

  /** The minute's full bar (ticks); closed minutes have volume 0. */
  minuteBar(minute: number, out: Bar): Bar {
    const absDay = Math.floor(minute / MINUTES_PER_DAY);
    const chunk = this.day(absDay);
    if (!chunk) {
      out.o = out.h = out.l = out.c = out.v = 0;
      return out;
    }
    const off = PricePath.offset(absDay);
    const k = minute - absDay * MINUTES_PER_DAY;
    const hour = Math.floor(k / 60);
    const minutes = this.minutesOf(chunk, absDay, hour);
    const inHour = k - hour * 60;
    const at = off * MINUTES_PER_DAY + k;
    const o = inHour === 0 ? this.hourOpen(chunk, absDay, hour) : (minutes[at - 1] ?? 0);
    const c = minutes[at] ?? o;
    const hi = chunk.hours[off * 72 + hour * 3 + 1] ?? c;
    const lo = chunk.hours[off * 72 + hour * 3 + 2] ?? c;
    const sigma = Math.max(2, c * this.spec.minuteVol * session(hour)) * 1.2;
    const bits = mix32(this.salt ^ Math.imul(minute | 0, 0x9e3779b1));
    const u1 = (bits & 0x7ff) / 2048;
    const u2 = ((bits >>> 11) & 0x7ff) / 2048;
    out.o = o;
    out.c = c;
    out.h =
      chunk.extremes[off * 48 + hour * 2] === inHour ? hi : Math.min(hi, (o > c ? o : c) + Math.floor(u1 * u1 * sigma));
    out.l =
      chunk.extremes[off * 48 + hour * 2 + 1] === inHour
        ? lo
        : Math.max(lo, (o < c ? o : c) - Math.floor(u2 * u2 * sigma));
    out.v = (dayOpenMask(absDay) >> hour) & 1 ? this.minuteVolume(minute, hour, bits) : 0;
    return out;
  }

  private minuteVolume(
    minute: number,
    hour: number,
    bits = mix32(this.salt ^ Math.imul(minute | 0, 0x9e3779b1)),
  ): number {
    return STEPS_PER_MINUTE + Math.floor(this.spec.minuteVolume * session(hour) * (0.4 + ((bits >>> 22) / 1024) * 1.2));
  }

  /**
   * The twelve 5-second steps of a minute: fills `steps[0..12]` with the mid at each step boundary
   * (steps[0] = open, steps[12] = close), and steps[13]/steps[14] with the steps holding the
   * minute's high and low, so the 5-second bars aggregate exactly to the minute bar.
   */
  private fillSteps(minute: number, bar: Bar): Int32Array {
    const steps = this.steps;
    const sigma = (Math.max(2, bar.c * this.spec.minuteVol) / Math.sqrt(STEPS_PER_MINUTE)) * 1.2;
    let w = 0;
    const ws = scratch;
    const key = this.salt ^ Math.imul(minute | 0, 0x9e3779b1);
    for (let k = 1; k <= STEPS_PER_MINUTE; k++) {
      w += (mix32(key + Math.imul(k, 0x632be5ab)) / 4294967296 - 0.5) * 3.4 * sigma;
      ws[k] = w;
    }
    steps[0] = bar.o;
    steps[STEPS_PER_MINUTE] = bar.c;
    for (let k = 1; k < STEPS_PER_MINUTE; k++) {
      const share = k / STEPS_PER_MINUTE;
      const p = Math.round(bar.o + (bar.c - bar.o) * share + ((ws[k] ?? 0) - share * w));
      steps[k] = p > bar.h ? bar.h : p < bar.l ? bar.l : p;
    }
    const pick = mix32(key ^ 0x5bd1e995);
    steps[STEPS_PER_MINUTE + 1] = pick % STEPS_PER_MINUTE;
    steps[STEPS_PER_MINUTE + 2] = (pick >>> 8) % STEPS_PER_MINUTE;
    return steps;
  }

  /** 5-second bar `step` (0..11) of a minute. */
  stepBar(minute: number, step: number, out: Bar): Bar {
    const bar = this.minuteBar(minute, out);
    const { h, l, v } = bar;
    const steps = this.fillSteps(minute, bar);
    const o = steps[step] ?? bar.o;
    const c = steps[step + 1] ?? bar.c;
    out.o = o;
    out.c = c;
    out.h = steps[STEPS_PER_MINUTE + 1] === step ? h : Math.max(o, c);
    out.l = steps[STEPS_PER_MINUTE + 2] === step ? l : Math.min(o, c);
    out.v = v === 0 ? 0 : Math.floor(v / STEPS_PER_MINUTE) + (step < v % STEPS_PER_MINUTE ? 1 : 0);
    return out;
  }

  private readonly midBar: Bar = { o: 0, h: 0, l: 0, c: 0, v: 0 };

  /** Mid at step boundary `step` (0..12) of a minute. */
  stepMid(minute: number, step: number): number {
    if (step === 0) return this.open(minute);
    const bar = this.minuteBar(minute, this.midBar);
    return this.fillSteps(minute, bar)[step] ?? bar.c;
  }

  /**
   * Hourly bar for the UTC hour starting at hourIndex × 1 h. Prices need no minute data; pass
   * `withVolume` for the exact tick volume (the sum of the minutes'). Volume 0 when the market is shut.
   */
  hourBar(hourIndex: number, out: Bar, withVolume = false): Bar {
    const absDay = Math.floor(hourIndex / 24);
    const hour = hourIndex - absDay * 24;
    const chunk = ((dayOpenMask(absDay) >> hour) & 1) === 1 ? this.day(absDay) : undefined;
    if (!chunk) {
      out.v = 0;
      return out;
    }
    const off = PricePath.offset(absDay);
    const hb = off * 72 + hour * 3;
    out.o = this.hourOpen(chunk, absDay, hour);
    out.c = chunk.hours[hb] ?? 0;
    out.h = chunk.hours[hb + 1] ?? 0;
    out.l = chunk.hours[hb + 2] ?? 0;
    if (!withVolume) {
      out.v = 1;
      return out;
    }
    let v = chunk.volumes[off * 24 + hour] ?? -1;
    if (v < 0) {
      v = 0;
      const first = hourIndex * 60;
      for (let m = first; m < first + 60; m++) v += this.minuteVolume(m, hour);
      chunk.volumes[off * 24 + hour] = v;
    }
    out.v = v;
    return out;
  }

  /**
   * The mid at an instant interpolated inside its hour bar: no minute data needed. Good enough for
   * currency conversion and financing, never used as a fill price.
   */
  roughMid(ms: number): number {
    const t = lastOpenAtOrBefore(ms);
    const hourIndex = Math.floor(t / HOUR);
    const bar = this.hourBar(hourIndex, this.midBar);
    if (bar.v === 0) return this.midAt(ms);
    return bar.o + ((bar.c - bar.o) * (t - hourIndex * HOUR)) / HOUR;
  }

  /**
   * The traded mid at an instant: the open of the 5-second bar containing it, so a fill at that
   * instant lies inside every candle that covers it. While the market is shut, the last close.
   */
  midAt(ms: number): number {
    const t = lastOpenAtOrBefore(ms);
    const minute = Math.floor(t / MINUTE);
    if (t !== ms) return this.close(minute);
    const step = Math.floor((ms - minute * MINUTE) / STEP_MS);
    return this.stepMid(minute, step);
  }
}
