import { describe, expect, it } from 'vitest';
import { formatDuration, formatMoney, formatUnits, hourLabel } from './format';
import { percent, round } from '../../../domain/rounding';
import { defaultPipSize } from '../../../domain/instruments';

describe('round', () => {
  it('rounds half away from zero despite binary noise', () => {
    expect(round(1.275, 2)).toBe(1.28); // 1.275 is stored as 1.27499999…
    expect(round(-1.275, 2)).toBe(-1.28);
    expect(round(2.345, 2)).toBe(2.35);
    expect(round(56.25, 1)).toBe(56.3);
    expect(round(-0.004, 2)).toBe(0);
    expect(Object.is(round(-0.004, 2), -0)).toBe(false);
  });

  it('gives percentages with one decimal, null of nothing', () => {
    expect(percent(1, 3)).toBe(33.3);
    expect(percent(2, 3)).toBe(66.7);
    expect(percent(1, 0)).toBeNull();
  });
});

describe('display formats', () => {
  it('writes money with separators and the currency', () => {
    expect(formatMoney(1234567.891, 'USD')).toBe('1,234,567.89 USD');
    expect(formatMoney(-0.001, 'EUR')).toBe('0.00 EUR');
    expect(formatMoney(-42.5, null)).toBe('-42.50');
  });

  it('writes durations in their two largest units', () => {
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(59_400)).toBe('59s');
    expect(formatDuration(59_600)).toBe('1m');
    expect(formatDuration(12 * 60_000)).toBe('12m');
    expect(formatDuration((3 * 60 + 12) * 60_000)).toBe('3h 12m');
    // 23h 59m 40s rounds to 24h 0m → shown in days
    expect(formatDuration(((23 * 60 + 59) * 60 + 40) * 1000)).toBe('1d 0h');
    expect(formatDuration((2 * 24 + 4) * 3_600_000 + 20 * 60_000)).toBe('2d 4h');
  });

  it('writes units and hour ranges', () => {
    expect(formatUnits(10_000)).toBe('10,000 units');
    expect(formatUnits(7.5)).toBe('7.5 units');
    expect(formatUnits(0.125)).toBe('0.13 units');
    expect(hourLabel(8)).toBe('08:00–09:00');
    expect(hourLabel(23)).toBe('23:00–00:00');
  });
});

describe('pip sizes', () => {
  it('follow OANDA pipLocation', () => {
    expect(defaultPipSize('EUR_USD')).toBe(0.0001);
    expect(defaultPipSize('USD_JPY')).toBe(0.01);
    expect(defaultPipSize('XAU_USD')).toBe(0.01);
    expect(defaultPipSize('XAG_USD')).toBe(0.0001);
  });
});
