/**
 * The one calendar of the server: local calendar fields of UTC instants in an IANA zone, and the
 * instants of local midnights, for the Overview's buckets and the assistant's periods alike. Fast
 * enough for 100,000 trades.
 *
 * Intl is slow (~1.5 µs a call) and allocates, so it is asked once per week-long block of UTC time
 * and zone for the offset at the block's start; a block whose end has another offset holds a
 * transition, found by bisection to the second. Afterwards a lookup is a Map hit plus arithmetic.
 * This assumes at most one transition per 7 days, which holds for every zone in use since 1970
 * (the closest pairs, Ramadan suspensions of daylight saving, are weeks apart). The caches live
 * for the process: past offsets never change, and their size is bounded by weeks × zones used.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
const BLOCK_MS = 7 * DAY_MS;

interface BlockOffsets {
  /** Offset (ms, local − UTC) from the start of the block until `switchAt`. */
  before: number;
  /** Offset from `switchAt` to the end of the block. */
  after: number;
  /** Instant of the transition inside the block, or +Infinity. */
  switchAt: number;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Parses the 'GMT+05:30' / 'GMT-04:56:02' / 'GMT' tail of a longOffset format. */
function parseLongOffset(text: string): number {
  const at = text.lastIndexOf('GMT');
  if (at < 0) throw new Error(`Unexpected time-zone offset text: ${text}`);
  const tail = text.slice(at + 3);
  if (tail === '') return 0;
  const match = /^([+-−])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(tail);
  if (!match) throw new Error(`Unexpected time-zone offset text: ${text}`);
  const sign = match[1] === '+' ? 1 : -1;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? 0);
  const seconds = Number(match[4] ?? 0);
  return sign * (hours * HOUR_MS + minutes * MINUTE_MS + seconds * 1000);
}

export class ZoneClock {
  readonly timeZone: string;
  private readonly format: Intl.DateTimeFormat;
  private readonly startOffsets = new Map<number, number>();
  private readonly blocks = new Map<number, BlockOffsets>();
  private lastBlock = Number.NaN;
  private lastOffsets: BlockOffsets = { before: 0, after: 0, switchAt: Infinity };

  constructor(timeZone: string) {
    try {
      this.format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    } catch {
      throw new RangeError(`Unknown time zone: ${timeZone}`);
    }
    this.timeZone = timeZone;
  }

  /** Offset (ms) of the zone at a UTC instant, asked from Intl without caching. */
  private intlOffset(ms: number): number {
    return parseLongOffset(this.format.format(ms));
  }

  private offsetAtBlockStart(block: number): number {
    let offset = this.startOffsets.get(block);
    if (offset === undefined) {
      offset = this.intlOffset(block * BLOCK_MS);
      this.startOffsets.set(block, offset);
    }
    return offset;
  }

  private blockOffsets(block: number): BlockOffsets {
    if (block === this.lastBlock) return this.lastOffsets;
    let offsets = this.blocks.get(block);
    if (offsets === undefined) {
      const before = this.offsetAtBlockStart(block);
      const after = this.offsetAtBlockStart(block + 1);
      let switchAt = Infinity;
      if (before !== after) {
        // Transitions fall on whole seconds: bisect to the first second with the new offset.
        let lo = block * BLOCK_MS;
        let hi = lo + BLOCK_MS;
        while (hi - lo > 1000) {
          const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
          if (this.intlOffset(mid) === before) lo = mid;
          else hi = mid;
        }
        switchAt = hi;
      }
      offsets = { before, after, switchAt };
      this.blocks.set(block, offsets);
    }
    this.lastBlock = block;
    this.lastOffsets = offsets;
    return offsets;
  }

  /** Offset in ms (local − UTC) at a UTC instant. */
  offsetAt(ms: number): number {
    const offsets = this.blockOffsets(Math.floor(ms / BLOCK_MS));
    return ms < offsets.switchAt ? offsets.before : offsets.after;
  }

  /** The local wall-clock time as if it were UTC: feed it to the helpers below. */
  local(ms: number): number {
    return ms + this.offsetAt(ms);
  }
}

/** Days since 1970-01-01 of a local (wall-clock-as-UTC) instant. */
export function localDayOf(localMs: number): number {
  return Math.floor(localMs / DAY_MS);
}

/** 0 = Sunday … 6 = Saturday; 1970-01-01 was a Thursday. */
export function weekdayOfDay(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function hourOf(localMs: number): number {
  return Math.floor((localMs - Math.floor(localMs / DAY_MS) * DAY_MS) / HOUR_MS);
}

/** 'YYYY-MM-DD' of a day number (days since the epoch). */
export function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

const clocks = new Map<string, ZoneClock>();

/** One clock per zone for the process, so repeated computations reuse the offset caches. */
export function zoneClock(timeZone: string): ZoneClock {
  let clock = clocks.get(timeZone);
  if (clock === undefined) {
    clock = new ZoneClock(timeZone);
    clocks.set(timeZone, clock);
  }
  return clock;
}

/** A calendar date; month 1 … 12. Out-of-range days and months roll over as in Date.UTC. */
export interface CalendarDay {
  y: number;
  m: number;
  d: number;
}

/** The local calendar fields of a UTC instant in a zone. Throws RangeError for an unknown zone. */
export function localFields(instant: number, timeZone: string) {
  const local = new Date(zoneClock(timeZone).local(instant));
  return {
    y: local.getUTCFullYear(),
    m: local.getUTCMonth() + 1,
    d: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** The local calendar date of a UTC instant in a zone. */
export function localDate(instant: number, timeZone: string): CalendarDay {
  const { y, m, d } = localFields(instant, timeZone);
  return { y, m, d };
}

/** The date `days` days later (earlier when negative). */
export function addDays(day: CalendarDay, days: number): CalendarDay {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + days));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** The UTC instant of the local midnight that starts a calendar day in a zone. */
export function startOfDay(day: CalendarDay, timeZone: string): Date {
  return startOfHour(day, 0, timeZone);
}

/** The UTC instant of a local hour (0 … 23) of a calendar day in a zone (an hour skipped by a change: after it). */
export function startOfHour(day: CalendarDay, hour: number, timeZone: string): Date {
  const clock = zoneClock(timeZone);
  const guess = Date.UTC(day.y, day.m - 1, day.d, hour);
  let instant = guess - clock.offsetAt(guess);
  // Near an offset change the first guess lands on the other side of it.
  const corrected = guess - clock.offsetAt(instant);
  if (corrected !== instant) instant = corrected;
  return new Date(instant);
}

/** Days from 1970-01-01 to a proleptic Gregorian date (month 1 … 12), by integer arithmetic (H. Hinnant's). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Two digits at `at` as a number, or NaN. */
function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : Number.NaN;
}

/** Days of a month (1 … 12) of a proleptic Gregorian year. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/**
 * `Date.parse(text)` of a stored UTC time, read by char code for the form every stored trade time has
 * (`2024-03-01T12:30:05.123456789Z`: digits past the millisecond are dropped, as Date.parse drops them); any other
 * text, or a day past the month's last (which Date.parse rolls into the next month), goes to Date.parse itself.
 */
export function instantOf(text: string): number {
  return instantIn(text, 0, text.length);
}

/** instantOf of `text.slice(start, end)`, without making that string for a stored time (the balance's one text). */
export function instantIn(text: string, start: number, end: number): number {
  const length = end - start;
  if (
    length >= 20 &&
    text.charCodeAt(start + 4) === 45 /* - */ &&
    text.charCodeAt(start + 7) === 45 &&
    text.charCodeAt(start + 10) === 84 /* T */ &&
    text.charCodeAt(start + 13) === 58 /* : */ &&
    text.charCodeAt(start + 16) === 58 &&
    text.charCodeAt(start + length - 1) === 90 /* Z */
  ) {
    const year = twoDigits(text, start) * 100 + twoDigits(text, start + 2);
    const month = twoDigits(text, start + 5);
    const day = twoDigits(text, start + 8);
    const hour = twoDigits(text, start + 11);
    const minute = twoDigits(text, start + 14);
    const second = twoDigits(text, start + 17);
    let ms = 0;
    let valid =
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      (day <= 28 || day <= daysInMonth(year, month)) &&
      hour <= 23 &&
      minute <= 59 &&
      second <= 59;
    if (valid && length > 20) {
      valid = text.charCodeAt(start + 19) === 46 /* . */ && length > 21;
      for (let i = 20; valid && i < length - 1; i++) {
        const digit = text.charCodeAt(start + i) - 48;
        if (digit < 0 || digit > 9) valid = false;
        else if (i < 23) ms = ms * 10 + digit;
      }
      if (valid && length - 21 < 3) ms *= 10 ** (3 - (length - 21));
    }
    // NaN in any field fails a comparison above.
    if (valid && year >= 0)
      return daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000 + ms;
  }
  return Date.parse(start === 0 && end === text.length ? text : text.slice(start, end));
}

/** An ISO-8601 week: its week-numbering year and week number (1 … 53). */
export interface IsoWeek {
  year: number;
  week: number;
}

/** The ISO week of a calendar date: the week of its Thursday (weeks run Monday to Sunday). */
export function isoWeekOf(day: CalendarDay): IsoWeek {
  const days = daysFromCivil(day.y, day.m, day.d);
  // Monday = 0 … Sunday = 6; the week's Thursday decides its year.
  const weekday = (weekdayOfDay(days) + 6) % 7;
  const thursday = new Date((days - weekday + 3) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week =
    Math.floor(
      (daysFromCivil(year, thursday.getUTCMonth() + 1, thursday.getUTCDate()) - daysFromCivil(year, 1, 1)) / 7,
    ) + 1;
  return { year, week };
}

/** `2026-W47`. */
export function isoWeekText({ year, week }: IsoWeek): string {
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The week of `2026-W47`, or null when the text is not an ISO week or the year has no such week (W53). */
export function parseIsoWeek(text: string): IsoWeek | null {
  const match = /^(\d{4})-W(\d{2})$/.exec(text);
  if (!match) return null;
  const week = { year: Number(match[1]), week: Number(match[2]) };
  if (week.week < 1) return null;
  // Week 53 exists only in a year whose 28 December (always in its last week) falls in week 53.
  if (week.week > isoWeekOf({ y: week.year, m: 12, d: 28 }).week) return null;
  return week;
}

/** The Monday of an ISO week (week 1 holds 4 January). */
export function mondayOf({ year, week }: IsoWeek): CalendarDay {
  const jan4 = daysFromCivil(year, 1, 4);
  const monday = jan4 - ((weekdayOfDay(jan4) + 6) % 7) + (week - 1) * 7;
  const t = new Date(monday * DAY_MS);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/**
 * An ISO week's bounds in a zone, as UTC instants: local Monday 00:00 to the next local Monday 00:00. Across a
 * change of offset the week is 167 or 169 hours long.
 */
export function isoWeekRange(week: IsoWeek, timeZone: string): { from: Date; to: Date } {
  const monday = mondayOf(week);
  return { from: startOfDay(monday, timeZone), to: startOfDay(addDays(monday, 7), timeZone) };
}

/** The ISO week `weeks` weeks after `week` (before it when negative). */
export function addWeeks(week: IsoWeek, weeks: number): IsoWeek {
  return isoWeekOf(addDays(mondayOf(week), weeks * 7));
}
