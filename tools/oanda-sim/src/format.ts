// OANDA's decimal strings and date-times. Money is kept as integer ten-thousandths and prices as
// integer ticks of the instrument's display precision, so every sum is exact and formatting is
// a matter of placing the decimal point.

/** Money in ten-thousandths of the account currency → AccountUnits string ("-12.2000", "0.0000"). */
export function money(tenThousandths: number): string {
  return fixedPoint(Math.round(tenThousandths), 4);
}

/** Integer scaled by 10^digits → decimal string with exactly `digits` decimals. */
export function fixedPoint(scaled: number, digits: number): string {
  const negative = scaled < 0;
  const abs = String(Math.abs(scaled));
  if (digits === 0) return negative ? `-${abs}` : abs;
  const padded = abs.padStart(digits + 1, '0');
  const body = `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
  return negative ? `-${body}` : body;
}

/** Rounds a float amount of the account currency to ten-thousandths. */
export function toMoneyUnits(amount: number): number {
  const r = Math.round(amount * 10_000);
  return r === 0 ? 0 : r;
}

/** A ratio such as marginCloseoutPercent, OANDA prints 5 decimals. */
export function percent5(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return '0.00000';
  return fixedPoint(Math.round(value * 100_000), 5);
}

export type TimeFormat = (ms: number, ns: number) => string;

const MS_PER_DAY = 86_400_000;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Times computed from durations can carry fractions of a millisecond: fold them into whole ms and ns. */
function wholeTime(ms: number, ns: number): [number, number] {
  const whole = Math.floor(ms);
  const nanos = Math.floor(ns) + Math.round((ms - whole) * 1_000_000);
  return nanos >= 1_000_000 ? [whole + 1, nanos - 1_000_000] : [whole, Math.max(0, nanos)];
}

/** RFC3339 with 9 fractional digits, always UTC: "2025-10-01T07:22:07.985697698Z". `ns` is the sub-millisecond part. */
export const rfc3339: TimeFormat = (rawMs, rawNs) => {
  const [ms, ns] = wholeTime(rawMs, rawNs);
  const days = Math.floor(ms / MS_PER_DAY);
  let rem = ms - days * MS_PER_DAY;
  const h = Math.floor(rem / 3_600_000);
  rem -= h * 3_600_000;
  const mi = Math.floor(rem / 60_000);
  rem -= mi * 60_000;
  const s = Math.floor(rem / 1000);
  const milli = rem - s * 1000;
  return `${civilDate(days)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(milli, 3)}${pad(ns, 6)}Z`;
};

/** `Accept-Datetime-Format: UNIX`: seconds since the epoch with a 9-digit fraction, as a string. */
export const unixTime: TimeFormat = (rawMs, rawNs) => {
  const [ms, ns] = wholeTime(rawMs, rawNs);
  const seconds = Math.floor(ms / 1000);
  return `${seconds}.${pad(ms - seconds * 1000, 3)}${pad(ns, 6)}`;
};

/** Days since 1970-01-01 → "YYYY-MM-DD" (Howard Hinnant's civil_from_days, no Date allocation). */
function civilDate(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

const RFC3339_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const UNIX_RE = /^(\d{1,12})(?:\.(\d{1,9}))?$/;

/** Parses a query DateTime the way the request's Accept-Datetime-Format says; undefined when malformed. */
export function parseDateTime(value: string, format: 'RFC3339' | 'UNIX'): number | undefined {
  if (format === 'UNIX') {
    const m = UNIX_RE.exec(value);
    if (!m) return undefined;
    const frac = (m[2] ?? '').padEnd(3, '0').slice(0, 3);
    return Number(m[1]) * 1000 + Number(frac);
  }
  const m = RFC3339_RE.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
  ms += Number((frac ?? '').padEnd(3, '0').slice(0, 3));
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  return Number.isFinite(ms) ? ms : undefined;
}
