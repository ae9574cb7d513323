import { describe, expect, it } from 'vitest';
import { normaliseDateTime } from './datetime';

describe('normaliseDateTime', () => {
  it("keeps OANDA's nanosecond UTC form as it is", () => {
    expect(normaliseDateTime('2025-10-03T14:30:12.384519064Z')).toBe('2025-10-03T14:30:12.384519064Z');
  });

  it('pads or cuts the fraction to nine digits so that text order is time order', () => {
    expect(normaliseDateTime('2025-10-03T14:30:12Z')).toBe('2025-10-03T14:30:12.000000000Z');
    expect(normaliseDateTime('2025-10-03T14:30:12.5Z')).toBe('2025-10-03T14:30:12.500000000Z');
    expect(normaliseDateTime('2025-10-03T14:30:12.1234567891Z')).toBe('2025-10-03T14:30:12.123456789Z');
    const a = normaliseDateTime('2025-10-03T14:30:12Z')!;
    const b = normaliseDateTime('2025-10-03T14:30:12.000000001Z')!;
    expect(a < b).toBe(true);
  });

  it('converts offsets to UTC without touching the fraction', () => {
    expect(normaliseDateTime('2025-10-03T16:30:12.000000007+02:00')).toBe('2025-10-03T14:30:12.000000007Z');
    expect(normaliseDateTime('2025-10-03T00:30:00-05:00')).toBe('2025-10-03T05:30:00.000000000Z');
  });

  it('reads the UNIX form OANDA sends when asked for it', () => {
    expect(normaliseDateTime('1759501812.384519064')).toBe('2025-10-03T14:30:12.384519064Z');
  });

  it('treats "0" and empty as never, and refuses what is not a time', () => {
    expect(normaliseDateTime('0')).toBeNull();
    expect(normaliseDateTime('')).toBeNull();
    expect(normaliseDateTime(undefined)).toBeNull();
    expect(normaliseDateTime('yesterday')).toBeUndefined();
    expect(normaliseDateTime('2025-13-45T99:00:00+01:00')).toBeUndefined();
    expect(normaliseDateTime('2025-13-01T10:00:00Z')).toBeUndefined();
  });
});
