import { describe, expect, it } from 'vitest';
import { normaliseDateTime } from './datetime';

/* The RFC 3339 form is domain/datetime.ts's (its tests); here what OANDA's wire adds. */
describe('normaliseDateTime', () => {
  it("keeps OANDA's nanosecond UTC form and converts RFC 3339 offsets", () => {
    expect(normaliseDateTime('2025-10-03T14:30:12.384519064Z')).toBe('2025-10-03T14:30:12.384519064Z');
    expect(normaliseDateTime('2025-10-03T16:30:12.000000007+02:00')).toBe('2025-10-03T14:30:12.000000007Z');
  });

  it('reads the UNIX form OANDA sends when asked for it', () => {
    expect(normaliseDateTime('1759501812.384519064')).toBe('2025-10-03T14:30:12.384519064Z');
    expect(normaliseDateTime('1759501812')).toBe('2025-10-03T14:30:12.000000000Z');
  });

  it('treats "0" and empty as never, and refuses what is not a time', () => {
    expect(normaliseDateTime('0')).toBeNull();
    expect(normaliseDateTime('')).toBeNull();
    expect(normaliseDateTime(undefined)).toBeNull();
    expect(normaliseDateTime('yesterday')).toBeUndefined();
    expect(normaliseDateTime('99999999999999999999')).toBeUndefined();
  });
});
