const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;
const UNIX = /^(\d+)(?:\.(\d+))?$/;

/**
 * A v20 DateTime as UTC `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`: OANDA's own nanosecond form, fixed width, so that text
 * order is time order in the database. Accepts RFC 3339 with any fraction or offset and OANDA's UNIX form
 * (`"1759501812.384519064"`). `"0"` and `""` (OANDA's "never") give null; anything else unreadable gives undefined.
 */
export function normaliseDateTime(value: string | null | undefined): string | null | undefined {
  if (value === null || value === undefined || value === '' || value === '0') return null;
  if (isCanonical(value)) return value;
  const rfc = RFC3339.exec(value);
  if (rfc) {
    const [, date, time, fraction = '', zone = 'Z'] = rfc;
    const nanos = fraction.padEnd(9, '0').slice(0, 9);
    const utc = zone === 'Z' || zone === 'z' || zone === '+00:00' || zone === '-00:00';
    const ms = Date.parse(`${date}T${time}${utc ? 'Z' : zone}`);
    if (Number.isNaN(ms)) return undefined;
    if (utc) return `${date}T${time}.${nanos}Z`;
    return `${new Date(ms).toISOString().slice(0, 19)}.${nanos}Z`;
  }
  const unix = UNIX.exec(value);
  if (unix) {
    const [, seconds = '0', fraction = ''] = unix;
    const ms = Number(seconds) * 1000;
    if (!Number.isSafeInteger(ms)) return undefined;
    return `${new Date(ms).toISOString().slice(0, 19)}.${fraction.padEnd(9, '0').slice(0, 9)}Z`;
  }
  return undefined;
}

const DIGIT_POSITIONS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22, 23, 24, 25, 26, 27, 28];
const two = (v: string, at: number) => (v.charCodeAt(at) - 48) * 10 + v.charCodeAt(at + 1) - 48;

/** OANDA's own form, checked without building a Date: nearly every time a sync reads takes this path. */
function isCanonical(v: string): boolean {
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
