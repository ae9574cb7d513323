import { describe, expect, it } from 'vitest';
import { isIsoWeek, isoWeekOf, lastWeek } from './coach-view';

describe('ISO weeks', () => {
  it('numbers weeks from the one holding 4 January, across a year end', () => {
    expect(isoWeekOf(new Date(2026, 10, 16))).toBe('2026-W47'); // a Monday
    expect(isoWeekOf(new Date(2026, 10, 22))).toBe('2026-W47'); // its Sunday
    expect(isoWeekOf(new Date(2026, 10, 23))).toBe('2026-W48');
    expect(isoWeekOf(new Date(2021, 0, 3))).toBe('2020-W53'); // a Sunday in the last week of 2020
    expect(isoWeekOf(new Date(2024, 11, 30))).toBe('2025-W01'); // a Monday in the first week of 2025
  });

  it('takes last week as the week before the current one', () => {
    expect(lastWeek(new Date(2026, 10, 27, 16, 0))).toBe('2026-W47');
    expect(lastWeek(new Date(2026, 10, 23, 0, 30))).toBe('2026-W47');
  });

  it('accepts only ISO week strings', () => {
    expect(isIsoWeek('2026-W47')).toBe(true);
    expect(isIsoWeek('2026-W54')).toBe(false);
    expect(isIsoWeek('2026-47')).toBe(false);
    expect(isIsoWeek(null)).toBe(false);
  });
});
