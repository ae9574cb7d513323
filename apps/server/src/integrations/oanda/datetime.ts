import { utcDateTime } from '../../domain/datetime';

const UNIX = /^(\d+)(?:\.(\d+))?$/;

/**
 * A v20 DateTime as the stored UTC form (domain/datetime.ts), which is OANDA's own nanosecond form. Accepts
 * RFC 3339 with any fraction or offset and OANDA's UNIX form (`"1759501812.384519064"`). `"0"` and `""` (OANDA's
 * "never") give null; anything else unreadable gives undefined.
 */
export function normaliseDateTime(value: string | null | undefined): string | null | undefined {
  if (value === null || value === undefined || value === '' || value === '0') return null;
  const rfc = utcDateTime(value);
  if (rfc !== undefined) return rfc;
  const unix = UNIX.exec(value);
  if (unix) {
    const [, seconds = '0', fraction = ''] = unix;
    const ms = Number(seconds) * 1000;
    if (!Number.isSafeInteger(ms)) return undefined;
    return `${new Date(ms).toISOString().slice(0, 19)}.${fraction.padEnd(9, '0').slice(0, 9)}Z`;
  }
  return undefined;
}
