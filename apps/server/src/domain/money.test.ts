import { describe, expect, it } from 'vitest';
import {
  formatMinorUnits,
  meanMinorUnits,
  minorUnitsOf,
  moneyValue,
  roundMinorUnits,
  sumMoney,
  toMinorUnits,
} from './money';
import { averagePL, PerformanceTally, profitFactor, winRate } from './performance';

describe('money in minor units', () => {
  it('reads the plain form by char code exactly as the regular expression reads any form', () => {
    // The reference: the regular-expression reading minorUnitsOf falls back to (spaces force it).
    for (const text of ['12.3456', '-0.0001', '7', '+1.5', '-0.0000', '1.23455', '-1.23455', '1.23454999', '12.', '0'])
      expect(minorUnitsOf(text), text).toBe(minorUnitsOf(` ${text} `));
    for (let i = 0; i < 5_000; i++) {
      const text = `${i % 3 === 0 ? '-' : ''}${(i * 7919) % 100_000}.${String((i * 104_729) % 10 ** ((i % 7) + 1)).padStart((i % 7) + 1, '0')}`;
      expect(minorUnitsOf(text), text).toBe(minorUnitsOf(` ${text} `));
    }
    for (const text of ['', '-', '.5', '1.2.3', '1e5', 'abc', '1,5']) expect(() => minorUnitsOf(text), text).toThrow();
    expect(() => minorUnitsOf('1000000000000')).toThrow(RangeError);
  });

  it('reads decimal strings digit by digit', () => {
    expect(minorUnitsOf('12.3456')).toBe(123_456);
    expect(minorUnitsOf('-0.0001')).toBe(-1);
    expect(minorUnitsOf('7')).toBe(70_000);
    expect(minorUnitsOf('+1.5')).toBe(15_000);
    expect(minorUnitsOf('-0.0000')).toBe(0);
    // Past OANDA's 4 decimals: half away from zero.
    expect(minorUnitsOf('0.00005')).toBe(1);
    expect(minorUnitsOf('-0.00005')).toBe(-1);
    expect(minorUnitsOf('0.000049')).toBe(0);
    expect(() => minorUnitsOf('1e3')).toThrow('not a decimal number');
    expect(() => minorUnitsOf('9999999999999.0000')).toThrow(RangeError);
  });

  it('agrees with numbers that went through Number()', () => {
    for (const text of ['1234567.8901', '-0.0118', '1.0005', '99999999.9999', '0.1', '-2.675']) {
      expect(toMinorUnits(Number(text))).toBe(minorUnitsOf(text));
    }
  });

  it('sums exactly where binary fractions drift', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumMoney(['0.1', '0.2'])).toBe('0.3000');
    expect(sumMoney(Array.from({ length: 1000 }, () => '0.0001'))).toBe('0.1000');
    expect(sumMoney([])).toBe('0.0000');
  });

  it('rounds half away from zero, exactly', () => {
    expect(roundMinorUnits(12_345, 2)).toBe(12_300);
    expect(roundMinorUnits(12_350, 2)).toBe(12_400);
    expect(roundMinorUnits(-12_350, 2)).toBe(-12_400);
    expect(roundMinorUnits(-49, 2)).toBe(0);
    expect(formatMinorUnits(-12_350, 2)).toBe('-1.24');
    expect(formatMinorUnits(5, 4)).toBe('0.0005');
    expect(formatMinorUnits(-49, 2)).toBe('0.00');
    expect(moneyValue(26_750)).toBe(2.68);
    expect(moneyValue(-26_750)).toBe(-2.68);
  });

  it('averages in integers', () => {
    expect(meanMinorUnits(10, 4)).toBe(3); // 2.5 → 3
    expect(meanMinorUnits(-10, 4)).toBe(-3);
    expect(meanMinorUnits(10_001, 2, 2)).toBe(5_000);
    expect(meanMinorUnits(10_100, 2, 2)).toBe(5_100);
    expect(meanMinorUnits(10_100, 4, 2)).toBe(2_500); // 0.2525 → 0.25
    expect(() => meanMinorUnits(1, 0)).toThrow(RangeError);
  });
});

describe('the performance tally', () => {
  it('defines win rate, profit factor and mean P/L once', () => {
    const tally = new PerformanceTally();
    for (const pl of ['10.0000', '-4.0000', '0.0000', '2.5000', '-1.0000']) tally.add(minorUnitsOf(pl), 0);
    expect([tally.wins, tally.losses, tally.breakEvens]).toEqual([2, 2, 1]);
    expect(winRate(tally)).toBe(40);
    expect(profitFactor(tally)).toBe(2.5);
    expect(averagePL(tally)).toBe(15_000);
    expect([tally.highest, tally.highestAt, tally.lowest, tally.lowestAt]).toEqual([100_000, 0, -40_000, 1]);
    expect(profitFactor(new PerformanceTally())).toBeNull();
    expect(averagePL(new PerformanceTally())).toBeNull();
  });
});
