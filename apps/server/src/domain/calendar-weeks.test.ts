import { describe, expect, it } from 'vitest';
import { addWeeks, isoWeekOf, isoWeekRange, isoWeekText, mondayOf, parseIsoWeek, startOfHour } from './calendar';

const HOUR = 3_600_000;

describe('ISO weeks', () => {
  it('numbers weeks by their Thursday, across year ends', () => {
    expect(isoWeekText(isoWeekOf({ y: 2026, m: 11, d: 16 }))).toBe('2026-W47');
    expect(isoWeekText(isoWeekOf({ y: 2026, m: 11, d: 22 }))).toBe('2026-W47');
    // 1 January 2027 is a Friday: it belongs to the last week of 2026, which has 53.
    expect(isoWeekText(isoWeekOf({ y: 2027, m: 1, d: 1 }))).toBe('2026-W53');
    // 29 December 2025 is a Monday whose Thursday is 1 January 2026.
    expect(isoWeekText(isoWeekOf({ y: 2025, m: 12, d: 29 }))).toBe('2026-W01');
    expect(mondayOf({ year: 2026, week: 1 })).toEqual({ y: 2025, m: 12, d: 29 });
    expect(isoWeekText(addWeeks({ year: 2026, week: 52 }, 2))).toBe('2027-W01');
  });

  it('parses a week and refuses one its year does not have', () => {
    expect(parseIsoWeek('2026-W47')).toEqual({ year: 2026, week: 47 });
    expect(parseIsoWeek('2026-W53')).toEqual({ year: 2026, week: 53 });
    expect(parseIsoWeek('2025-W53')).toBeNull();
    expect(parseIsoWeek('2026-W00')).toBeNull();
    expect(parseIsoWeek('2026-47')).toBeNull();
  });

  it('bounds a week by local Mondays: 169 hours in London when summer time ends', () => {
    // Summer time ends on Sunday 25 October 2026, inside week 43.
    const { from, to } = isoWeekRange({ year: 2026, week: 43 }, 'Europe/London');
    expect(from.toISOString()).toBe('2026-10-18T23:00:00.000Z');
    expect(to.toISOString()).toBe('2026-10-26T00:00:00.000Z');
    expect((to.getTime() - from.getTime()) / HOUR).toBe(169);
  });

  it('bounds a week by local Mondays: 167 hours in New York when daylight time starts', () => {
    // Daylight time starts on Sunday 8 March 2026, inside week 10.
    const { from, to } = isoWeekRange({ year: 2026, week: 10 }, 'America/New_York');
    expect(from.toISOString()).toBe('2026-03-02T05:00:00.000Z');
    expect(to.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect((to.getTime() - from.getTime()) / HOUR).toBe(167);
    expect(isoWeekRange({ year: 2026, week: 11 }, 'America/New_York').from.toISOString()).toBe(
      '2026-03-09T04:00:00.000Z',
    );
  });

  it('finds a local hour on a day of a change', () => {
    expect(startOfHour({ y: 2026, m: 10, d: 25 }, 7, 'Europe/London').toISOString()).toBe('2026-10-25T07:00:00.000Z');
    expect(startOfHour({ y: 2026, m: 10, d: 24 }, 7, 'Europe/London').toISOString()).toBe('2026-10-24T06:00:00.000Z');
  });
});
