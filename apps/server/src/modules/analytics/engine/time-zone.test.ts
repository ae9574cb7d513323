import { describe, expect, it } from 'vitest';
import { computeMetrics } from './compute-metrics';
import { FIXTURE_ACCOUNTS, FIXTURE_NOW, FIXTURE_TRADES } from '../../../test/hand-checked-trades';
import { SESSION_NAMES, sessionIndexAt } from './sessions';
import { hourOf, isValidTimeZone, localDayOf, weekdayOfDay, ZoneClock } from '../../../domain/calendar';

const formats = new Map<string, Intl.DateTimeFormat>();

/** Wall clock of a UTC instant in a zone, straight from Intl, as 'YYYY-MM-DD HH:MM'. */
function intlWallClock(timeZone: string, ms: number): string {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

function clockWallClock(clock: ZoneClock, ms: number): string {
  return new Date(clock.local(ms)).toISOString().slice(0, 16).replace('T', ' ');
}

describe('ZoneClock', () => {
  it('switches offset at the exact second of a daylight-saving change', () => {
    const newYork = new ZoneClock('America/New_York');
    // 2025-03-09 02:00 EST (07:00 UTC) jumps to 03:00 EDT; 2025-11-02 02:00 EDT (06:00 UTC) falls back to 01:00 EST
    expect(clockWallClock(newYork, Date.UTC(2025, 2, 9, 6, 59, 59))).toBe('2025-03-09 01:59');
    expect(clockWallClock(newYork, Date.UTC(2025, 2, 9, 7, 0, 0))).toBe('2025-03-09 03:00');
    expect(clockWallClock(newYork, Date.UTC(2025, 10, 2, 5, 59, 59))).toBe('2025-11-02 01:59');
    expect(clockWallClock(newYork, Date.UTC(2025, 10, 2, 6, 0, 0))).toBe('2025-11-02 01:00');
  });

  it('agrees with Intl around transitions in unusual zones', () => {
    // half-hour DST (Lord Howe), +05:45 (Kathmandu), +12:45/+13:45 (Chatham), Ramadan DST breaks (Casablanca),
    // southern hemisphere (Santiago), a zone that skipped a day (Apia, end of 2011)
    const zones = [
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'Africa/Casablanca',
      'America/Santiago',
      'Pacific/Apia',
    ];
    const mismatches: string[] = [];
    for (const zone of zones) {
      const clock = new ZoneClock(zone);
      for (let ms = Date.UTC(2011, 0, 1); ms < Date.UTC(2026, 0, 1); ms += 7 * 3_600_000 + 13 * 60_000) {
        const expected = intlWallClock(zone, ms);
        const actual = clockWallClock(clock, ms);
        if (actual !== expected) mismatches.push(`${zone} ${new Date(ms).toISOString()}: ${actual} ≠ ${expected}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('derives local day, weekday and hour', () => {
    const tokyo = new ZoneClock('Asia/Tokyo');
    // Sunday 2025-09-07 20:30 UTC is Monday 05:30 in Tokyo (+09:00)
    const local = tokyo.local(Date.UTC(2025, 8, 7, 20, 30));
    expect(weekdayOfDay(localDayOf(local))).toBe(1);
    expect(hourOf(local)).toBe(5);
    // 1970-01-01 was a Thursday; 1969-12-31 a Wednesday
    expect(weekdayOfDay(0)).toBe(4);
    expect(weekdayOfDay(-1)).toBe(3);
  });

  it('validates zone names', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('Not/AZone')).toBe(false);
    expect(() => new ZoneClock('Not/AZone')).toThrow('Unknown time zone: Not/AZone');
  });
});

describe('sessions in market time', () => {
  const session = (iso: string): string => SESSION_NAMES[sessionIndexAt(Date.parse(iso))]!;

  it('uses winter hours in January', () => {
    // London GMT, New York EST: Asia 22-08, London 08-13, New York 13-22 UTC
    expect(session('2025-01-15T07:59:00Z')).toBe('Asia');
    expect(session('2025-01-15T08:00:00Z')).toBe('London');
    expect(session('2025-01-15T12:59:00Z')).toBe('London');
    expect(session('2025-01-15T13:00:00Z')).toBe('New York');
    expect(session('2025-01-15T21:59:00Z')).toBe('New York');
    expect(session('2025-01-15T22:00:00Z')).toBe('Asia');
  });

  it('moves an hour earlier in summer', () => {
    expect(session('2025-07-15T06:59:00Z')).toBe('Asia');
    expect(session('2025-07-15T07:00:00Z')).toBe('London');
    expect(session('2025-07-15T12:00:00Z')).toBe('New York');
    expect(session('2025-07-15T21:00:00Z')).toBe('Asia');
  });

  it('follows each centre on its own when only the US has changed clocks', () => {
    // 2025-03-12: New York already on EDT (opens 12:00 UTC), London still on GMT (opens 08:00 UTC)
    expect(session('2025-03-12T07:30:00Z')).toBe('Asia');
    expect(session('2025-03-12T08:00:00Z')).toBe('London');
    expect(session('2025-03-12T12:00:00Z')).toBe('New York');
    expect(session('2025-03-12T21:00:00Z')).toBe('Asia');
  });
});

describe('time-zone sensitivity of the metrics', () => {
  const auckland = computeMetrics(FIXTURE_TRADES, FIXTURE_ACCOUNTS, { now: FIXTURE_NOW, timeZone: 'Pacific/Auckland' });
  const utc = computeMetrics(FIXTURE_TRADES, FIXTURE_ACCOUNTS, { now: FIXTURE_NOW, timeZone: 'UTC' });

  it('moves trades to other weekdays', () => {
    // Auckland is UTC+12 in early September: trades opened at 12:00 UTC or later fall on the next day.
    // Mon: 101 +50, 111 -100; Tue: 102 (Mon 13:00Z) -40, 103 +25, 112 +60; Wed: 104 (Tue 13:30Z) 0, 105 -40;
    // Thu: 106 (Wed 13:00Z) -20, 107 +30; Fri: 108 (Thu 14:00Z) +50, 109 +40; Sat: 110 (Fri 13:00Z) 0
    expect(auckland.charts.byWeekday.map((b) => [b.label, b.trades, b.netPL])).toEqual([
      ['Monday', 2, -50],
      ['Tuesday', 3, 45],
      ['Wednesday', 2, -40],
      ['Thursday', 2, 10],
      ['Friday', 2, 90],
      ['Saturday', 1, 0],
      ['Sunday', 0, 0],
    ]);
    expect(utc.charts.byWeekday[0]).toMatchObject({ label: 'Monday', trades: 3, netPL: -90 });
  });

  it('moves trades to other hours', () => {
    // 08:xx UTC → 20h (101 105 107 109 112), 07:xx → 19h (103 111), 13:xx → 01h (102 104 106 110), 14:00 → 02h (108)
    const busy = auckland.charts.byHour.filter((b) => b.trades > 0).map((b) => [b.hour, b.trades, b.netPL]);
    expect(busy).toEqual([
      [1, 4, -60],
      [2, 1, 50],
      [19, 2, -75],
      [20, 5, 140],
    ]);
    expect(auckland.behavioralAnalysis?.['Best Hour']).toBe('20:00–21:00: 140.00 USD over 5 trades (80.0% wins)');
    // only Tuesday still has 3 closed trades, so there is no best or worst weekday
    expect(auckland.behavioralAnalysis?.['Best Weekday']).toBe('-');
  });

  it('counts active days in the zone', () => {
    // local open days: 09-01 09-02 09-03 09-04 09-05 09-06 (110) 09-08 09-09 09-10 09-11 09-12 (115, 116) = 11
    // 16 / 11 = 1.45 → 1.5
    expect(auckland.tradingProfile?.['Trades per Active Day']).toBe('1.5 (11 active days)');
  });

  it('keeps sessions in market time whatever the user zone', () => {
    expect(auckland.tradingProfile?.['Most Active Session']).toBe(utc.tradingProfile?.['Most Active Session']);
    expect(auckland.facts.profile?.sessions).toEqual(utc.facts.profile?.sessions);
  });
});
