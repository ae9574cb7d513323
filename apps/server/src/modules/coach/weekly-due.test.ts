import { describe, expect, it } from 'vitest';
import { DEFAULT_COACH_SETTINGS } from '@pipsense/contract';
import { isoWeekText } from '../../domain/calendar';
import { dueWeek } from './weekly-service';

const due = (at: string, timeZone: string, weeklyDay = 1, weeklyHour = 7) =>
  isoWeekText(dueWeek({ ...DEFAULT_COACH_SETTINGS, weeklyDay, weeklyHour }, timeZone, new Date(at)));

describe('the week the job makes', () => {
  it('is last week from the local day and hour on, the week before until then', () => {
    // Monday 23 November 2026, 07:00 UTC.
    expect(due('2026-11-23T06:59:59Z', 'UTC')).toBe('2026-W46');
    expect(due('2026-11-23T07:00:00Z', 'UTC')).toBe('2026-W47');
    // Sunday 20:00 as the hour: still within the week after the one made.
    expect(due('2026-11-29T19:59:00Z', 'UTC', 7, 20)).toBe('2026-W46');
    expect(due('2026-11-29T20:00:00Z', 'UTC', 7, 20)).toBe('2026-W47');
  });

  it('follows the local hour across a change of offset', () => {
    // London: Monday 19 October 07:00 is 06:00 UTC (summer time); Monday 26 October 07:00 is 07:00 UTC.
    expect(due('2026-10-19T05:59:00Z', 'Europe/London')).toBe('2026-W41');
    expect(due('2026-10-19T06:00:00Z', 'Europe/London')).toBe('2026-W42');
    expect(due('2026-10-26T06:30:00Z', 'Europe/London')).toBe('2026-W42');
    expect(due('2026-10-26T07:00:00Z', 'Europe/London')).toBe('2026-W43');
    // New York: Monday 9 March 07:00 is 11:00 UTC (daylight time began on the Sunday).
    expect(due('2026-03-09T10:59:00Z', 'America/New_York')).toBe('2026-W09');
    expect(due('2026-03-09T11:00:00Z', 'America/New_York')).toBe('2026-W10');
  });
});
