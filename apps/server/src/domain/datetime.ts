/*
 * The stored form of every trade time, whatever the broker: UTC `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`, fixed width
 * (nine fraction digits, OANDA's own form), so that text order is time order in the database. Local calendar days
 * and time zones are calendar.ts's; a broker's own wire forms stay with its integration (integrations/oanda/datetime.ts).
 */

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 date-time with any fraction and any offset as the stored UTC form; undefined when it is not one (a
 * date that does not exist included). The fraction is kept to the nanosecond, never rounded through a Date.
 */
export function utcDateTime(value: string): string | undefined {
  if (isStoredForm(value)) return value;
  const rfc = RFC3339.exec(value);
  if (!rfc) return undefined;
  const [, date, time, fraction = '', zone = 'Z'] = rfc;
  const nanos = fraction.padEnd(9, '0').slice(0, 9);
  const utc = zone === 'Z' || zone === 'z' || zone === '+00:00' || zone === '-00:00';
  const ms = Date.parse(`${date}T${time}${utc ? 'Z' : zone}`);
  if (Number.isNaN(ms)) return undefined;
  if (utc) return `${date}T${time}.${nanos}Z`;
  return `${new Date(ms).toISOString().slice(0, 19)}.${nanos}Z`;
}

/** utcDateTime for a time that must be one (an imported trade's, converted before): throws naming `what` otherwise. */
export function storedDateTime(value: string, what: string): string {
  const t = utcDateTime(value);
  if (!t) throw new Error(`${what} is not an RFC 3339 time: ${JSON.stringify(value)}`);
  return t;
}

/**
 * A wall-clock time without a zone (`YYYY-MM-DDTHH:mm:ss`, as a broker's server prints it) read at a fixed UTC
 * offset (`+02:00`), in the stored UTC form. Throws when the text is not such a time.
 */
export function wallClockToUtc(wallClock: string, offset: string): string {
  const utc = utcDateTime(`${wallClock}${offset === '+00:00' ? 'Z' : offset}`);
  if (!utc) throw new Error(`not a wall-clock time at ${offset}: ${wallClock}`);
  return utc;
}

const DIGIT_POSITIONS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22, 23, 24, 25, 26, 27, 28];
const two = (v: string, at: number) => (v.charCodeAt(at) - 48) * 10 + v.charCodeAt(at + 1) - 48;

/** The stored form, checked without building a Date: nearly every time a sync reads takes this path. */
function isStoredForm(v: string): boolean {
  if (
    v.length !== 30 ||
    v[4] !== '-' ||
    v[7] !== '-' ||
    v[10] !== 'T' ||
    v[13] !== ':' ||
    v[16] !== ':' ||
    v[19] !== '.' ||
    v[29] !== 'Z'
  )
    return false;
  for (const i of DIGIT_POSITIONS) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  const month = two(v, 5);
  const day = two(v, 8);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && two(v, 11) < 24 && two(v, 14) < 60 && two(v, 17) < 60;
}
