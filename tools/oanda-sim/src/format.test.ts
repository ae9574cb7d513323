import { describe, expect, it } from 'vitest';
import { rfc3339, unixTime } from './format';

describe('time formats', () => {
  it('always writes nine fractional digits, even for fractional milliseconds', () => {
    const ms = Date.UTC(2026, 10, 9, 0, 7, 59, 136) + 0.73291015625;
    expect(rfc3339(ms, 0)).toBe('2026-11-09T00:07:59.136732910Z');
    expect(rfc3339(Date.UTC(2025, 9, 1, 7, 22, 7, 985), 697698)).toBe('2025-10-01T07:22:07.985697698Z');
    expect(unixTime(Date.UTC(2025, 9, 1, 7, 22, 7, 985), 697698)).toBe('1759303327.985697698');
    expect(rfc3339(999.9999999, 0)).toMatch(/^1970-01-01T00:00:01\.000000000Z$/);
  });
});
