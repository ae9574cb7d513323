import { describe, expect, it } from 'vitest';
import { serverInstants, serverOffsetAt, serverTimesToUtc, type BrokerTime } from './broker-time';

/*
 * The expected instants are worked out here from the published switch rules, without the tz database: the US
 * switches at 02:00 New York local time on the 2nd Sunday of March and the 1st Sunday of November; the EU at 01:00
 * UTC on the last Sunday of March and of October.
 */

const US: BrokerTime = { rule: 'ny-close-us' };
const EU: BrokerTime = { rule: 'ny-close-eu' };
const YEARS = [2023, 2024, 2025, 2026];

const pad = (n: number) => String(n).padStart(2, '0');
/** Day of the month of the n-th Sunday (n = -1: the last). */
function sunday(year: number, month: number, n: number): number {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return 1 + ((7 - first) % 7) + (n - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(year, month, 0));
  return lastDay.getUTCDate() - lastDay.getUTCDay();
}
const wall = (year: number, month: number, day: number, time: string) => `${year}-${pad(month)}-${pad(day)}T${time}`;
const utcOf = (text: string) => new Date(serverInstants(text, US).earlier).toISOString();
const read = (text: string, time: BrokerTime) => {
  const { earlier, later } = serverInstants(text, time);
  return {
    earlier: new Date(earlier).toISOString().slice(0, 19),
    ...(later === undefined ? {} : { later: new Date(later).toISOString().slice(0, 19) }),
  };
};
/** The server wall clock `days` after a date, at noon. */
const noonAfter = (year: number, month: number, day: number, days: number) =>
  new Date(Date.UTC(year, month - 1, day + days, 12)).toISOString().slice(0, 19);

describe('broker time rules', () => {
  it('is sane', () => expect(utcOf('2024-01-10T12:00:00')).toBe('2024-01-10T10:00:00.000Z'));

  for (const year of YEARS) {
    const usSpring = sunday(year, 3, 2);
    const euSpring = sunday(year, 3, -1);
    const euAutumn = sunday(year, 10, -1);
    const usAutumn = sunday(year, 11, 1);

    it(`${year}: the weeks where US and EU clocks differ, and the weeks around them`, () => {
      // Spring: the US has moved (UTC+3 for ny-close-us), the EU not yet (UTC+2 for ny-close-eu).
      for (let d = 0; d < euSpring - usSpring; d += 1) {
        const w = noonAfter(year, 3, usSpring, d);
        expect(read(w, US).earlier, w).toBe(w.replace('T12', 'T09'));
        expect(read(w, EU).earlier, w).toBe(w.replace('T12', 'T10'));
      }
      // Autumn: the EU is back on winter time (UTC+2), the US still on summer time (UTC+3).
      for (let d = 0; d < 31 - euAutumn + usAutumn; d += 1) {
        const w = noonAfter(year, 10, euAutumn, d);
        expect(read(w, US).earlier, w).toBe(w.replace('T12', 'T09'));
        expect(read(w, EU).earlier, w).toBe(w.replace('T12', 'T10'));
      }
      // Before the US spring switch, and after the US autumn switch: both winter (UTC+2).
      for (const w of [noonAfter(year, 3, usSpring, -1), noonAfter(year, 11, usAutumn, 0), `${year}-01-15T12:00:00`]) {
        expect(read(w, US).earlier, w).toBe(w.replace('T12', 'T10'));
        expect(read(w, EU).earlier, w).toBe(w.replace('T12', 'T10'));
      }
      // After the EU spring switch, before the EU autumn switch: both summer (UTC+3).
      for (const w of [noonAfter(year, 3, euSpring, 0), `${year}-07-15T12:00:00`, noonAfter(year, 10, euAutumn, -1)]) {
        expect(read(w, US).earlier, w).toBe(w.replace('T12', 'T09'));
        expect(read(w, EU).earlier, w).toBe(w.replace('T12', 'T09'));
      }
    });

    it(`${year}: ny-close-us switches at 07:00 UTC (spring) and 06:00 UTC (autumn)`, () => {
      // Spring: server 09:00 (+2) becomes 10:00 (+3) at 07:00 UTC; 09:00–10:00 does not exist.
      expect(read(wall(year, 3, usSpring, '08:59:59'), US)).toEqual({ earlier: wall(year, 3, usSpring, '06:59:59') });
      expect(read(wall(year, 3, usSpring, '10:00:00'), US)).toEqual({ earlier: wall(year, 3, usSpring, '07:00:00') });
      // The gap is read at the later (summer) offset.
      expect(read(wall(year, 3, usSpring, '09:30:00'), US)).toEqual({ earlier: wall(year, 3, usSpring, '06:30:00') });
      // Autumn: server 09:00 (+3) goes back to 08:00 (+2) at 06:00 UTC; 08:00–09:00 happens twice.
      expect(read(wall(year, 11, usAutumn, '07:59:59'), US)).toEqual({ earlier: wall(year, 11, usAutumn, '04:59:59') });
      expect(read(wall(year, 11, usAutumn, '08:30:00'), US)).toEqual({
        earlier: wall(year, 11, usAutumn, '05:30:00'),
        later: wall(year, 11, usAutumn, '06:30:00'),
      });
      expect(read(wall(year, 11, usAutumn, '09:00:00'), US)).toEqual({ earlier: wall(year, 11, usAutumn, '07:00:00') });
    });

    it(`${year}: ny-close-eu switches at 01:00 UTC on the last Sundays of March and October`, () => {
      expect(read(wall(year, 3, euSpring, '02:59:59'), EU)).toEqual({ earlier: wall(year, 3, euSpring, '00:59:59') });
      expect(read(wall(year, 3, euSpring, '03:30:00'), EU)).toEqual({ earlier: wall(year, 3, euSpring, '00:30:00') });
      expect(read(wall(year, 3, euSpring, '04:00:00'), EU)).toEqual({ earlier: wall(year, 3, euSpring, '01:00:00') });
      expect(read(wall(year, 10, euAutumn, '02:59:59'), EU)).toEqual({
        earlier: wall(year, 10, euAutumn, '23:59:59').replace(`-${pad(euAutumn)}T`, `-${pad(euAutumn - 1)}T`),
      });
      expect(read(wall(year, 10, euAutumn, '03:30:00'), EU)).toEqual({
        earlier: wall(year, 10, euAutumn, '00:30:00'),
        later: wall(year, 10, euAutumn, '01:30:00'),
      });
      expect(read(wall(year, 10, euAutumn, '04:00:00'), EU)).toEqual({ earlier: wall(year, 10, euAutumn, '02:00:00') });
    });
  }

  it('a fixed offset is one offset all year', () => {
    const fixed: BrokerTime = { rule: 'fixed', offset: '+02:00' };
    expect(read('2024-07-15T12:00:00', fixed)).toEqual({ earlier: '2024-07-15T10:00:00' });
    expect(read('2024-01-15T12:00:00', { rule: 'fixed', offset: '-05:30' })).toEqual({
      earlier: '2024-01-15T17:30:00',
    });
  });

  it('names the offset in force at an instant', () => {
    expect(serverOffsetAt(Date.parse('2024-03-20T12:00:00Z'), US)).toBe('+03:00');
    expect(serverOffsetAt(Date.parse('2024-03-20T12:00:00Z'), EU)).toBe('+02:00');
    expect(serverOffsetAt(Date.parse('2024-03-20T12:00:00Z'), { rule: 'fixed', offset: '+01:00' })).toBe('+01:00');
  });
});

describe('serverTimesToUtc', () => {
  // 2024-11-03: New York back to winter time at 06:00 UTC, so ny-close-us server time 08:00–09:00 repeats.
  const trade = (ticket: string, open: string, close: string | null = '2024-11-04T10:00:00') => ({
    ticket,
    openTime: `2024-11-03T${open}`,
    closeTime: close,
  });

  it('takes the earlier instant of a repeated hour when the tickets agree', () => {
    const [a, b] = serverTimesToUtc([trade('100', '08:10:00'), trade('101', '08:50:00')], US);
    expect(a!.openTime).toBe('2024-11-03T05:10:00.000000000Z');
    expect(b!.openTime).toBe('2024-11-03T05:50:00.000000000Z');
  });

  it('takes the later instant when a higher ticket would otherwise open before a lower one', () => {
    const out = serverTimesToUtc(
      // File order is not ticket order: the tickets decide.
      [trade('102', '08:20:00'), trade('100', '08:50:00'), trade('99', '08:05:00'), trade('101', '08:10:00')],
      US,
    );
    expect(out.map((t) => t.openTime.slice(11, 19))).toEqual(['06:20:00', '05:50:00', '05:05:00', '06:10:00']);
  });

  it('keeps the earlier instant for trades whose tickets are not numbers', () => {
    const out = serverTimesToUtc([trade('row-2', '08:50:00'), trade('row-3', '08:10:00')], US);
    expect(out.map((t) => t.openTime.slice(11, 19))).toEqual(['05:50:00', '05:10:00']);
  });

  it("takes the later close of a repeated hour when the earlier would come before the trade's open", () => {
    const [t] = serverTimesToUtc([trade('7', '08:50:00', '2024-11-03T08:10:00')], US);
    expect(t!.openTime).toBe('2024-11-03T05:50:00.000000000Z');
    expect(t!.closeTime).toBe('2024-11-03T06:10:00.000000000Z');
    const [u] = serverTimesToUtc([trade('8', '08:05:00', '2024-11-03T08:10:00')], US);
    expect(u!.closeTime).toBe('2024-11-03T05:10:00.000000000Z');
  });

  it('reads each trade by its own date', () => {
    const out = serverTimesToUtc(
      [
        { ticket: '1', openTime: '2024-01-10T12:00:00', closeTime: '2024-06-10T12:00:00' },
        { ticket: '2', openTime: '2024-03-12T12:00:00', closeTime: null },
      ],
      US,
    );
    expect(out).toEqual([
      { openTime: '2024-01-10T10:00:00.000000000Z', closeTime: '2024-06-10T09:00:00.000000000Z' },
      { openTime: '2024-03-12T09:00:00.000000000Z', closeTime: null },
    ]);
  });
});
