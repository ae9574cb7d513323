import { describe, expect, it } from 'vitest';
import { decimalDifference, isDecimal, isPlainDecimal, subtractDecimals } from './decimal';

/** A seeded generator (xorshift), so that a failure names a case that can be run again. */
function random(seed: number) {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function decimalText(next: () => number): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');
  const whole = String(Number(digits(1 + Math.floor(next() * 9))));
  const scale = Math.floor(next() * 12);
  return `${next() < 0.4 ? '-' : ''}${whole}${scale > 0 ? `.${digits(scale)}` : ''}`;
}

describe('decimalDifference', () => {
  it('is Number() of the exact difference, for prices and for anything longer', () => {
    const next = random(20_251_125);
    for (let i = 0; i < 20_000; i++) {
      const a = decimalText(next);
      const b = decimalText(next);
      expect(decimalDifference(a, b), `${a} − ${b}`).toBe(Number(subtractDecimals(a, b)) || 0);
    }
    // Beyond 15 digits, or products beyond 2^53: the exact text path.
    expect(decimalDifference('12345678901234567.5', '0.25')).toBe(Number('12345678901234567.25'));
    expect(decimalDifference('999999999999999', '0.000000000000001')).toBe(
      Number(subtractDecimals('999999999999999', '0.000000000000001')),
    );
    expect(decimalDifference('1.10000', '1.09800')).toBe(0.002);
    expect(Object.is(decimalDifference('-0', '0'), 0)).toBe(true);
  });

  it('reads the forms isDecimal reads, and refuses the others as subtractDecimals does', () => {
    for (const text of ['1', '-1.5', ' 1.25 ', '007.10', '0.0']) {
      expect(isPlainDecimal(text), text).toBe(true);
      expect(decimalDifference(text, '1')).toBe(Number(subtractDecimals(text, '1')));
    }
    for (const text of ['', '-', '1.', '.5', '+1', '1e5', '1.2.3', 'abc', null, undefined]) {
      expect(isPlainDecimal(text), String(text)).toBe(isDecimal(text));
      expect(isPlainDecimal(text)).toBe(false);
    }
    expect(() => decimalDifference('1.', '1')).toThrow('not a decimal number');
  });
});
