import { describe, expect, it } from 'vitest';
import { inPeriod, PeriodError, resolvePeriod } from './periods';

const friday = new Date('2025-03-14T15:00:00Z');
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('periods', () => {
  it.each([
    ['today', {}, '2025-03-14T00:00:00.000Z', '2025-03-15T00:00:00.000Z', 'today (2025-03-14)'],
    ['yesterday', {}, '2025-03-13T00:00:00.000Z', '2025-03-14T00:00:00.000Z', 'yesterday (2025-03-13)'],
    ['this_week', {}, '2025-03-10T00:00:00.000Z', '2025-03-17T00:00:00.000Z', 'this week (since Monday 2025-03-10)'],
    ['last_week', {}, '2025-03-03T00:00:00.000Z', '2025-03-10T00:00:00.000Z', 'last week (2025-03-03 to 2025-03-09)'],
    ['this_month', {}, '2025-03-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z', 'this month (March 2025)'],
    ['last_month', {}, '2025-02-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z', 'last month (February 2025)'],
    [
      'last_n_days',
      { days: 7 },
      '2025-03-08T00:00:00.000Z',
      '2025-03-15T00:00:00.000Z',
      'the last 7 days (2025-03-08 to 2025-03-14)',
    ],
    [
      'range',
      { from: '2025-01-01', to: '2025-01-31' },
      '2025-01-01T00:00:00.000Z',
      '2025-02-01T00:00:00.000Z',
      '2025-01-01 to 2025-01-31',
    ],
  ] as const)('%s in UTC', (kind, extra, from, to, label) => {
    const p = resolvePeriod({ kind, ...extra }, friday);
    expect([iso(p.from), iso(p.to), p.label]).toEqual([from, to, label]);
  });

  it("counts calendar days in the trader's zone, across daylight-saving changes", () => {
    // New York switched to daylight time on Sunday 9 March 2025: that day lasted 23 hours.
    const p = resolvePeriod({ kind: 'last_week' }, friday, 'America/New_York');
    expect(iso(p.from)).toBe('2025-03-03T05:00:00.000Z');
    expect(iso(p.to)).toBe('2025-03-10T04:00:00.000Z');
    const tokyo = resolvePeriod({ kind: 'today' }, friday, 'Asia/Tokyo');
    expect(tokyo.label).toBe('today (2025-03-15)');
    expect(iso(tokyo.from)).toBe('2025-03-14T15:00:00.000Z');
  });

  it('treats January as following last December', () => {
    const p = resolvePeriod({ kind: 'last_month' }, new Date('2025-01-10T12:00:00Z'));
    expect([iso(p.from), iso(p.to), p.label]).toEqual([
      '2024-12-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
      'last month (December 2024)',
    ]);
  });

  it('refuses impossible dates and backwards ranges', () => {
    expect(() => resolvePeriod({ kind: 'range', from: '2025-02-30' }, friday)).toThrow(PeriodError);
    expect(() => resolvePeriod({ kind: 'range', from: '2025-03-10', to: '2025-03-01' }, friday)).toThrow(
      'from must not be later than to',
    );
    expect(() => resolvePeriod({ kind: 'last_n_days', days: 0 }, friday)).toThrow(PeriodError);
  });

  it('has an inclusive start and an exclusive end', () => {
    const p = resolvePeriod({ kind: 'yesterday' }, friday);
    expect(inPeriod(p, '2025-03-13T00:00:00.000000000Z')).toBe(true);
    expect(inPeriod(p, '2025-03-13T23:59:59.999999999Z')).toBe(true);
    expect(inPeriod(p, '2025-03-14T00:00:00.000000000Z')).toBe(false);
    expect(inPeriod(p, null)).toBe(false);
    expect(inPeriod(resolvePeriod({ kind: 'all' }, friday), null)).toBe(true);
  });
});
