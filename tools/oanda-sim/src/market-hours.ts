// When the FX market trades and where OANDA's day boundaries fall. The week runs from Sunday
// 17:00 to Friday 17:00 New York time; daily candles and financing roll over at 17:00 New York.

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

const dstCache = new Map<number, readonly [number, number]>();

/** US daylight saving (since 2007): 2nd Sunday of March 07:00Z to 1st Sunday of November 06:00Z. */
function dstRange(year: number): readonly [number, number] {
  let range = dstCache.get(year);
  if (!range) {
    const march1 = Date.UTC(year, 2, 1);
    const marchDow = new Date(march1).getUTCDay();
    const secondSunday = 1 + ((7 - marchDow) % 7) + 7;
    const nov1 = Date.UTC(year, 10, 1);
    const novDow = new Date(nov1).getUTCDay();
    const firstSunday = 1 + ((7 - novDow) % 7);
    range = [Date.UTC(year, 2, secondSunday, 7), Date.UTC(year, 10, firstSunday, 6)] as const;
    dstCache.set(year, range);
  }
  return range;
}

const YEAR_MS = 31_556_952_000;

function yearOf(utcMs: number): number {
  // Cheap estimate, corrected at the edges of a year.
  let year = 1970 + Math.floor(utcMs / YEAR_MS);
  if (utcMs < Date.UTC(year, 0, 1)) year -= 1;
  else if (utcMs >= Date.UTC(year + 1, 0, 1)) year += 1;
  return year;
}

// The year last looked up: nearly every call in a loop falls in the same year.
let cachedYearStart = 0;
let cachedYearEnd = -1;
let cachedDst: readonly [number, number] = [0, 0];

/** Offset of New York local time from UTC, in ms (−4 h in summer, −5 h in winter). */
export function newYorkOffset(utcMs: number): number {
  if (utcMs < cachedYearStart || utcMs >= cachedYearEnd) {
    const year = yearOf(utcMs);
    cachedYearStart = Date.UTC(year, 0, 1);
    cachedYearEnd = Date.UTC(year + 1, 0, 1);
    cachedDst = dstRange(year);
  }
  return utcMs >= cachedDst[0] && utcMs < cachedDst[1] ? -4 * HOUR : -5 * HOUR;
}

/** Day of week (0 = Sunday) of a local-time millisecond count. */
function weekdayOfLocal(localMs: number): number {
  return (((Math.floor(localMs / DAY) + 4) % 7) + 7) % 7;
}

export function isMarketOpen(utcMs: number): boolean {
  const local = utcMs + newYorkOffset(utcMs);
  const wd = weekdayOfLocal(local);
  const hour = Math.floor((((local % DAY) + DAY) % DAY) / HOUR);
  if (wd === 6) return false;
  if (wd === 5) return hour < 17;
  if (wd === 0) return hour >= 17;
  return true;
}

/** The latest instant ≤ utcMs at which the market was open (utcMs itself when open). */
export function lastOpenAtOrBefore(utcMs: number): number {
  if (isMarketOpen(utcMs)) return utcMs;
  // Closed: step back to the Friday 17:00 New York close, an hour at a time (at most ~49 steps).
  let t = Math.floor(utcMs / HOUR) * HOUR;
  while (!isMarketOpen(t - 1)) t -= HOUR;
  return t - 1;
}

/** The earliest instant ≥ utcMs at which the market is open. */
export function nextOpenAtOrAfter(utcMs: number): number {
  if (isMarketOpen(utcMs)) return utcMs;
  let t = Math.floor(utcMs / HOUR) * HOUR + HOUR;
  while (!isMarketOpen(t)) t += HOUR;
  return t;
}

/** Financing rollovers (17:00 New York, Monday to Friday) in (fromMs, toMs], with OANDA's days charged. */
export function rolloversBetween(fromMs: number, toMs: number): { at: number; days: number }[] {
  const out: { at: number; days: number }[] = [];
  if (toMs <= fromMs) return out;
  let dayStart = Math.floor((fromMs + newYorkOffset(fromMs)) / DAY) * DAY;
  for (;;) {
    const rollLocal = dayStart + 17 * HOUR;
    const at = localToUtc('America/New_York', rollLocal);
    if (at > toMs) break;
    if (at > fromMs) {
      const wd = weekdayOfLocal(rollLocal);
      const days = wd === 3 ? 3 : wd >= 1 && wd <= 5 ? 1 : 0;
      if (days > 0) out.push({ at, days });
    }
    dayStart += DAY;
  }
  return out;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Offset of `tz` from UTC at a UTC instant, in ms. New York and UTC avoid Intl for speed. */
export function timeZoneOffset(tz: string, utcMs: number): number {
  if (tz === 'America/New_York') return newYorkOffset(utcMs);
  if (tz === 'UTC' || tz === 'Etc/UTC' || tz === 'GMT' || tz === 'Etc/GMT') return 0;
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** Converts a local wall-clock millisecond count in `tz` to UTC. */
export function localToUtc(tz: string, localMs: number): number {
  const guess = localMs - timeZoneOffset(tz, localMs);
  return localMs - timeZoneOffset(tz, guess);
}
