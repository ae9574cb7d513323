import { describe, expect, it } from 'vitest';
import { addDays, instantOf, localDate, localFields, startOfDay } from './calendar';

function intlFields(instant: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const field = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return {
    y: field('year'),
    m: field('month'),
    d: field('day'),
    hour: field('hour'),
    minute: field('minute'),
    second: field('second'),
  };
}

describe('the calendar in a zone', () => {
  it('gives the local fields Intl gives, across transitions', () => {
    for (const zone of ['UTC', 'Europe/London', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe']) {
      for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2025, 0, 1); ms += 5 * 3_600_000 + 17 * 60_000 + 13_000) {
        expect(localFields(ms, zone), `${zone} ${new Date(ms).toISOString()}`).toEqual(intlFields(ms, zone));
      }
    }
  });

  it('finds local midnight, also on days that start at another offset', () => {
    expect(startOfDay({ y: 2025, m: 3, d: 14 }, 'Asia/Tokyo').toISOString()).toBe('2025-03-13T15:00:00.000Z');
    // New York changes to EDT at 02:00 on 2025-03-09: that day starts at EST, the next at EDT.
    expect(startOfDay({ y: 2025, m: 3, d: 9 }, 'America/New_York').toISOString()).toBe('2025-03-09T05:00:00.000Z');
    expect(startOfDay({ y: 2025, m: 3, d: 10 }, 'America/New_York').toISOString()).toBe('2025-03-10T04:00:00.000Z');
    // Day 0 is the last day of the previous month.
    expect(startOfDay({ y: 2025, m: 3, d: 0 }, 'UTC').toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(() => startOfDay({ y: 2025, m: 1, d: 1 }, 'Not/AZone')).toThrow(RangeError);
  });

  it('counts dates in the zone and across month and year ends', () => {
    // 2025-03-13 20:00 UTC is already the 14th in Tokyo, still the 13th in New York.
    expect(localDate(Date.UTC(2025, 2, 13, 20), 'Asia/Tokyo')).toEqual({ y: 2025, m: 3, d: 14 });
    expect(localDate(Date.UTC(2025, 2, 13, 20), 'America/New_York')).toEqual({ y: 2025, m: 3, d: 13 });
    expect(addDays({ y: 2024, m: 12, d: 31 }, 1)).toEqual({ y: 2025, m: 1, d: 1 });
    expect(addDays({ y: 2024, m: 3, d: 1 }, -1)).toEqual({ y: 2024, m: 2, d: 29 });
  });
});

describe('instantOf', () => {
  it('is Date.parse for stored times, their nanoseconds dropped, and for any other text', () => {
    const texts = [
      '2019-02-12T12:32:37.123999999Z',
      '2019-02-12T12:32:37Z',
      '2019-02-12T12:32:37.1Z',
      '2019-02-12T12:32:37.12Z',
      '2024-02-29T23:59:59.999Z',
      '2019-02-31T12:32:37Z', // Date.parse rolls it into March
      '2019-02-29T12:32:37Z',
      '2019-04-31T12:32:37.000000000Z',
      '2000-02-29T00:00:00Z',
      '2100-02-29T00:00:00Z',
      '2024-12-31T23:59:59.999999999Z',
      '2019-02-12T24:00:00Z',
      '0099-02-12T12:32:37Z',
      '1969-12-31T23:59:59.999000000Z',
      '2019-02-12T12:32:37.Z',
      '2019-02-12 12:32:37Z',
      '2019-02-12T12:32:37+01:00',
      '2019-02-12T12:32:37.1a3Z',
      '2019-13-01T00:00:00Z',
      'not a time',
    ];
    for (const text of texts) expect(instantOf(text), text).toBe(Date.parse(text));
    for (let ms = Date.UTC(1999, 0, 1); ms < Date.UTC(2031, 0, 1); ms += 86_400_000 + 3_723_456) {
      const stored = `${new Date(ms).toISOString().slice(0, 23)}456789Z`;
      expect(instantOf(stored), stored).toBe(ms);
    }
  });
});
