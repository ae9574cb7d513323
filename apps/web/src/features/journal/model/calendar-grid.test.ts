import { describe, expect, it } from 'vitest';
import { OCTOBER } from '../test/journal-fixtures';
import { dayTone, intensityOf, monthGrid, monthTotals, shiftMonth, todayIn } from './calendar-grid';
import { sumDecimals } from '@pipsense/contract';
import { compactPL, signedPL } from './pl-text';

describe('calendar grid', () => {
  it('lays October 2025 out Monday first with blanks around the month', () => {
    const weeks = monthGrid('2025-10', OCTOBER);
    expect(weeks).toHaveLength(5);
    expect(weeks[0]!.days.map((d) => d?.day ?? null)).toEqual([null, null, 1, 2, 3, 4, 5]);
    expect(weeks[4]!.days.map((d) => d?.day ?? null)).toEqual([27, 28, 29, 30, 31, null, null]);
  });

  it('totals each week exactly and counts its trades', () => {
    const weeks = monthGrid('2025-10', OCTOBER);
    expect(weeks.map((w) => [w.netPL, w.trades])).toEqual([
      ['10.5', 1],
      ['-49.85', 6],
      ['0', 1],
      ['0', 0],
      ['0', 0],
    ]);
    expect(monthTotals(OCTOBER)).toEqual({ netPL: '-39.35', trades: 8, tradedDays: 5 });
  });

  it('colours a day by its share of the largest day, a quarter per step', () => {
    const cells = monthGrid('2025-10', OCTOBER).flatMap((w) => w.days);
    const tone = (date: string) => dayTone(cells.find((d) => d?.date === date)!);
    expect(tone('2025-10-08')).toBe('cal-loss-4');
    expect(tone('2025-10-06')).toBe('cal-win-3');
    expect(tone('2025-10-07')).toBe('cal-win-1');
    expect(tone('2025-10-15')).toBe('cal-flat');
    expect(tone('2025-10-20')).toBe('cal-none');
    expect(intensityOf('50', 200)).toBe(1);
    expect(intensityOf('50.01', 200)).toBe(2);
    expect(intensityOf('-5', 0)).toBe(0);
  });

  it('moves across years and reads today in the trader zone', () => {
    expect(shiftMonth('2025-01', -1)).toBe('2024-12');
    expect(shiftMonth('2025-12', 1)).toBe('2026-01');
    expect(shiftMonth('2025-06', 12)).toBe('2026-06');
    const now = new Date('2025-10-31T23:30:00Z');
    expect(todayIn('UTC', now)).toBe('2025-10-31');
    expect(todayIn('Asia/Tokyo', now)).toBe('2025-11-01');
  });
});

describe('P/L text', () => {
  it('sums decimal strings exactly', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['-0.0001', '0.00005'])).toBe('-0.00005');
    expect(sumDecimals([])).toBe('0');
    expect(sumDecimals(['1234567890.12', '0.88'])).toBe('1234567891.00');
  });

  it('signs and squeezes amounts', () => {
    expect(signedPL('120.1')).toBe('+120.10');
    expect(signedPL('-200')).toBe('-200.00');
    expect(signedPL('0')).toBe('0.00');
    expect(compactPL('-1250.5')).toBe('-1.3k');
    expect(compactPL('87.6')).toBe('+88');
    expect(compactPL('0.00')).toBe('0');
  });
});
