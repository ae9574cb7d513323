import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../domain/calendar';
import { inputs, m, trade } from '../../../test/rule-inputs';
import { DayBoundary, evaluateRules, ruleSetFromPreset } from './index';

/**
 * The day boundary in daylight-saving weeks (docs/reference/prop-firms.md §8.2): R_d from the tz database, days of
 * 23 and 25 hours, both directions, in Europe/Prague (FTMO) and America/New_York (server midnight).
 */

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Each day's [start, end) and length in hours, for the dates given. */
function days(boundary: DayBoundary, dates: string[]) {
  return dates.map((date) => {
    const start = boundary.resetOf(dayNumber(date));
    const end = boundary.resetOf(dayNumber(date) + 1);
    return [date, iso(start), (end - start) / HOUR_MS];
  });
}

describe('day boundaries across daylight saving', () => {
  it('Europe/Prague at midnight: a 23-hour day on 29 March, a 25-hour day on 25 October 2026', () => {
    const prague = new DayBoundary('00:00', 'Europe/Prague');
    expect(days(prague, ['2026-03-28', '2026-03-29', '2026-03-30'])).toEqual([
      ['2026-03-28', '2026-03-27T23:00:00.000Z', 24],
      ['2026-03-29', '2026-03-28T23:00:00.000Z', 23],
      ['2026-03-30', '2026-03-29T22:00:00.000Z', 24],
    ]);
    expect(days(prague, ['2026-10-24', '2026-10-25', '2026-10-26'])).toEqual([
      ['2026-10-24', '2026-10-23T22:00:00.000Z', 24],
      ['2026-10-25', '2026-10-24T22:00:00.000Z', 25],
      ['2026-10-26', '2026-10-25T23:00:00.000Z', 24],
    ]);
  });

  it('America/New_York at 17:00 (server midnight): 23 hours from 7 March, 25 hours from 31 October 2026', () => {
    const ny = new DayBoundary('17:00', 'America/New_York');
    expect(days(ny, ['2026-03-06', '2026-03-07', '2026-03-08'])).toEqual([
      ['2026-03-06', '2026-03-06T22:00:00.000Z', 24],
      ['2026-03-07', '2026-03-07T22:00:00.000Z', 23],
      ['2026-03-08', '2026-03-08T21:00:00.000Z', 24],
    ]);
    expect(days(ny, ['2026-10-30', '2026-10-31', '2026-11-01'])).toEqual([
      ['2026-10-30', '2026-10-30T21:00:00.000Z', 24],
      ['2026-10-31', '2026-10-31T21:00:00.000Z', 25],
      ['2026-11-01', '2026-11-01T22:00:00.000Z', 24],
    ]);
  });

  it('America/New_York at midnight: 8 March has 23 hours, 1 November 25', () => {
    const ny = new DayBoundary('00:00', 'America/New_York');
    expect(days(ny, ['2026-03-08', '2026-11-01'])).toEqual([
      ['2026-03-08', '2026-03-08T05:00:00.000Z', 23],
      ['2026-11-01', '2026-11-01T04:00:00.000Z', 25],
    ]);
  });

  it('a reset time the clock skips starts the day at the switch; one it repeats, at its first occurrence', () => {
    const prague = new DayBoundary('02:30', 'Europe/Prague');
    // 29 March: 02:00 CET jumps to 03:00 CEST at 01:00 UTC.
    expect(iso(prague.resetOf(dayNumber('2026-03-29')))).toBe('2026-03-29T01:00:00.000Z');
    // 25 October: 02:30 happens at 00:30 UTC (CEST) and again at 01:30 UTC (CET).
    expect(iso(prague.resetOf(dayNumber('2026-10-25')))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('places an instant in its day: the reset itself starts the day', () => {
    const ny = new DayBoundary('17:00', 'America/New_York');
    const reset = Date.parse('2026-03-08T21:00:00Z');
    expect(ny.dateOf(ny.dayOf(reset))).toBe('2026-03-08');
    expect(ny.dateOf(ny.dayOf(reset - 1))).toBe('2026-03-07');
    expect(() => new DayBoundary('00:00', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('the engine in daylight-saving weeks', () => {
  it('FTMO (Prague): a record for every day of the week, weekends included, chained end to start, with the 23-hour Sunday', () => {
    const set = ruleSetFromPreset('ftmo-2step-challenge', {
      accountId: 'acc-1',
      startTime: '2026-03-23T08:00:00Z',
      initialBalance: '100000',
    });
    const result = evaluateRules(
      set,
      inputs({
        trades: [
          // 23:30 Prague (CET) on Saturday the 28th: still Saturday's day.
          trade('sat', '2026-03-28T22:30:00Z', '2026-03-28T22:45:00Z', '1000'),
          // 00:30 Prague (CEST) on Monday the 30th: Monday's day, though 22:30 UTC on Sunday.
          trade('mon', '2026-03-29T22:30:00Z', '2026-03-29T22:45:00Z', '500'),
        ],
      }),
      '2026-03-31T12:00:00Z',
    );
    expect(result.days.map((d) => d.date)).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
    ]);
    for (let i = 1; i < result.days.length; i++) expect(result.days[i]!.start).toBe(result.days[i - 1]!.end);
    const sunday = result.days.find((d) => d.date === '2026-03-29')!;
    expect((Date.parse(sunday.end) - Date.parse(sunday.start)) / HOUR_MS).toBe(23);
    expect(result.days.filter((d) => d.tradingDay).map((d) => d.date)).toEqual(['2026-03-28', '2026-03-30']);
    expect(sunday).toMatchObject({ anchor: m('101000'), floor: m('96000'), closedPL: m('0') });
    expect(result.days.find((d) => d.date === '2026-03-31')!.anchor).toBe(m('101500'));
  });

  it('Prague in autumn: the 25-hour Sunday holds a trade at 23:30 UTC (00:30 CET Monday is the next day)', () => {
    const set = ruleSetFromPreset('ftmo-2step-challenge', {
      accountId: 'acc-1',
      startTime: '2026-10-22T08:00:00Z',
      initialBalance: '100000',
    });
    const result = evaluateRules(
      set,
      inputs({
        trades: [
          trade('sun', '2026-10-25T22:30:00Z', '2026-10-25T22:40:00Z', '100'),
          trade('mon', '2026-10-25T23:30:00Z', '2026-10-25T23:40:00Z', '100'),
        ],
      }),
      '2026-10-26T12:00:00Z',
    );
    const sunday = result.days.find((d) => d.date === '2026-10-25')!;
    expect(sunday).toMatchObject({ start: '2026-10-24T22:00:00.000Z', end: '2026-10-25T23:00:00.000Z' });
    expect(result.days.filter((d) => d.tradingDay).map((d) => d.date)).toEqual(['2026-10-25', '2026-10-26']);
  });

  it('New York server midnight: the 25-hour day in November and the 23-hour day in March hold their trades', () => {
    const run = (startTime: string, trades: ReturnType<typeof trade>[], at: string) =>
      evaluateRules(
        ruleSetFromPreset('fundednext-stellar-2step', { accountId: 'acc-1', startTime, initialBalance: '100000' }),
        inputs({ trades }),
        at,
      );
    // 21:30 UTC on 1 November is 16:30 EST: still the day that began at 17:00 EDT on 31 October (21:00 UTC).
    const autumn = run(
      '2026-10-29T12:00:00Z',
      [trade('a', '2026-11-01T21:30:00Z', '2026-11-01T21:40:00Z', '-1000')],
      '2026-11-02T12:00:00Z',
    );
    const long = autumn.days.find((d) => d.date === '2026-10-31')!;
    expect(long).toMatchObject({ start: '2026-10-31T21:00:00.000Z', end: '2026-11-01T22:00:00.000Z' });
    expect(long.closedPL).toBe(m('-1000'));
    expect(autumn.days.at(-1)).toMatchObject({ date: '2026-11-01', anchor: m('99000'), floor: m('94000') });
    // 21:30 UTC on 8 March is 17:30 EDT: the day that began at 21:00 UTC.
    const spring = run(
      '2026-03-05T12:00:00Z',
      [trade('b', '2026-03-08T21:30:00Z', '2026-03-08T21:40:00Z', '700')],
      '2026-03-09T12:00:00Z',
    );
    const short = spring.days.find((d) => d.date === '2026-03-07')!;
    expect((Date.parse(short.end) - Date.parse(short.start)) / HOUR_MS).toBe(23);
    expect(spring.days.find((d) => d.date === '2026-03-08')!.closedPL).toBe(m('700'));
  });
});
