import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  groupDecimal,
  multiplyDecimals,
  roundDecimal,
  subtractDecimals,
  sumDecimals,
  trimDecimal,
} from './decimal';

describe('decimal arithmetic on broker strings', () => {
  it('sums exactly where floating point drifts', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['12.3456', '-0.0456', '100'])).toBe('112.3000');
    expect(sumDecimals(Array.from({ length: 1000 }, () => '0.0001'))).toBe('0.1000');
    expect(sumDecimals([])).toBe('0');
    // The totals of a 100,000-trade report: 300,000 terms.
    expect(sumDecimals(Array.from({ length: 300_000 }, (_, i) => (i % 2 ? '0.01' : '-0.005')))).toBe('750.000');
  });

  it('subtracts and compares at the finer precision', () => {
    expect(subtractDecimals('1.08950', '1.085')).toBe('0.00450');
    expect(subtractDecimals('147.9', '148.012')).toBe('-0.112');
    expect(compareDecimals('1.10', '1.1')).toBe(0);
    expect(compareDecimals('-2', '1.5')).toBe(-1);
  });

  it('rounds half away from zero and groups thousands', () => {
    expect(roundDecimal('1.005', 2)).toBe('1.01');
    expect(roundDecimal('-1.005', 2)).toBe('-1.01');
    expect(roundDecimal('-0.004', 2)).toBe('0.00');
    expect(groupDecimal('1234567.891', 2)).toBe('1,234,567.89');
    expect(groupDecimal('-100234.5678', 2)).toBe('-100,234.57');
    expect(groupDecimal('999.995', 2)).toBe('1,000.00');
  });

  it('refuses what is not a decimal', () => {
    expect(() => sumDecimals(['1e5'])).toThrow('not a decimal number');
  });

  it('multiplies exactly and trims trailing zeros', () => {
    expect(0.07 * 100000).not.toBe(7000);
    expect(multiplyDecimals('0.07', '100000')).toBe('7000.00');
    expect(multiplyDecimals('-1.5', '0.25')).toBe('-0.375');
    expect(multiplyDecimals('0.01', '100')).toBe('1.00');
    expect(trimDecimal('7000.00')).toBe('7000');
    expect(trimDecimal('1.2500')).toBe('1.25');
    expect(trimDecimal('-0.50')).toBe('-0.5');
    expect(trimDecimal('120')).toBe('120');
  });
});
