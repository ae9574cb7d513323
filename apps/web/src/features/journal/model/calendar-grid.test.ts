import { describe, expect, it } from 'vitest';
import { MARCH_LISTED, OCTOBER } from '../test/journal-fixtures';
import { dayTone, intensityOf, monthGrid, monthTotals, shiftMonth, todayIn } from './calendar-grid';
import { sumDecimals } from '@pipsense/contract';
import { figureText } from './pl-text';

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
    expect(monthTotals(OCTOBER)).toEqual({ netPL: '-39.35', byCurrency: null, trades: 8, tradedDays: 5 });
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

  it('writes a figure signed and grouped, through the one money formatter', () => {
    expect(figureText({ netPL: '-12345.6', byCurrency: null })).toBe('-12,345.60');
    expect(figureText({ netPL: '120.1', byCurrency: null })).toBe('+120.10');
    expect(figureText({ netPL: '0', byCurrency: [] })).toBe('0.00');
  });
});

describe('a month of several currencies (listed)', () => {
  it('totals per currency, never one sum', () => {
    expect(monthTotals(MARCH_LISTED)).toEqual({
      netPL: '0',
      byCurrency: [
        { currency: 'JPY', amount: '-382286.63' },
        { currency: 'USD', amount: '1200.50' },
      ],
      trades: 3,
      tradedDays: 2,
    });
    const weeks = monthGrid('2025-03', MARCH_LISTED);
    expect(weeks.find((w) => w.trades === 2)?.byCurrency).toEqual([
      { currency: 'JPY', amount: '-45000' },
      { currency: 'USD', amount: '1200.50' },
    ]);
    expect(figureText(monthTotals(MARCH_LISTED))).toBe('-382,286.63 JPY · +1,200.50 USD');
  });

  it('colours a day whose currencies disagree as flat', () => {
    const cell = monthGrid('2025-03', MARCH_LISTED)
      .flatMap((w) => w.days)
      .find((d) => d?.date === '2025-03-14')!;
    expect(dayTone(cell)).toBe('cal-flat');
  });
});
