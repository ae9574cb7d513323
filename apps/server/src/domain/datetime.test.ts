import { describe, expect, it } from 'vitest';
import { utcDateTime, wallClockToUtc } from './datetime';

describe('utcDateTime', () => {
  it('keeps the stored nanosecond UTC form as it is', () => {
    expect(utcDateTime('2025-10-03T14:30:12.384519064Z')).toBe('2025-10-03T14:30:12.384519064Z');
  });

  it('pads or cuts the fraction to nine digits so that text order is time order', () => {
    expect(utcDateTime('2025-10-03T14:30:12Z')).toBe('2025-10-03T14:30:12.000000000Z');
    expect(utcDateTime('2025-10-03T14:30:12.5Z')).toBe('2025-10-03T14:30:12.500000000Z');
    expect(utcDateTime('2025-10-03T14:30:12.1234567891Z')).toBe('2025-10-03T14:30:12.123456789Z');
    const a = utcDateTime('2025-10-03T14:30:12Z')!;
    const b = utcDateTime('2025-10-03T14:30:12.000000001Z')!;
    expect(a < b).toBe(true);
  });

  it('converts offsets to UTC without touching the fraction', () => {
    expect(utcDateTime('2025-10-03T16:30:12.000000007+02:00')).toBe('2025-10-03T14:30:12.000000007Z');
    expect(utcDateTime('2025-10-03T00:30:00-05:00')).toBe('2025-10-03T05:30:00.000000000Z');
  });

  it('refuses what is not a time', () => {
    expect(utcDateTime('')).toBeUndefined();
    expect(utcDateTime('yesterday')).toBeUndefined();
    expect(utcDateTime('1759501812.384519064')).toBeUndefined();
    expect(utcDateTime('2025-13-45T99:00:00+01:00')).toBeUndefined();
    expect(utcDateTime('2025-13-01T10:00:00Z')).toBeUndefined();
  });
});

describe('wallClockToUtc', () => {
  it('reads broker server time at its offset, across a day boundary', () => {
    expect(wallClockToUtc('2024-03-01T01:30:00', '+02:00')).toBe('2024-02-29T23:30:00.000000000Z');
    expect(wallClockToUtc('2024-03-01T22:00:00', '-05:00')).toBe('2024-03-02T03:00:00.000000000Z');
    expect(wallClockToUtc('2024-03-01T10:00:00', '+00:00')).toBe('2024-03-01T10:00:00.000000000Z');
  });

  it('throws on text that is not a wall-clock time', () => {
    expect(() => wallClockToUtc('2024-02-30 10:00', '+02:00')).toThrow('not a wall-clock time');
  });
});
