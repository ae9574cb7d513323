import { describe, expect, it } from 'vitest';
import {
  compactMoney,
  decimalSign,
  formatCount,
  formatDateTime,
  formatDecimal,
  formatInstrument,
  formatMoney,
  formatMoneyFigure,
  formatSigned,
  formatSignedMoney,
  formatSignedPercent,
  moneyFigureParts,
  plClass,
} from './format';

describe('formatDecimal', () => {
  it('pads to the number of places', () => {
    expect(formatDecimal('147.566', 5)).toBe('147.56600');
    expect(formatDecimal('100', 2)).toBe('100.00');
    expect(formatDecimal('0.5', 4)).toBe('0.5000');
  });

  it('rounds half away from zero on the digits, never through a float', () => {
    expect(formatDecimal('1.175505', 5)).toBe('1.17551');
    expect(formatDecimal('-8.37055', 4)).toBe('-8.3706');
    expect(formatDecimal('2.675', 2)).toBe('2.68'); // 2.675 is 2.67499… as a double
    expect(formatDecimal('1.005', 2)).toBe('1.01');
    expect(formatDecimal('-1.004999', 2)).toBe('-1.00');
  });

  it('carries into the whole part', () => {
    expect(formatDecimal('9.99995', 4)).toBe('10.0000');
    expect(formatDecimal('-99.995', 2)).toBe('-100.00');
    expect(formatDecimal('0.999999', 5)).toBe('1.00000');
  });

  it('keeps every digit of large values', () => {
    expect(formatDecimal('123456789012345678.125', 2)).toBe('123456789012345678.13');
    expect(formatDecimal('00012.5', 0)).toBe('13');
  });

  it('drops the sign of a value that rounds to zero', () => {
    expect(formatDecimal('-0.00004', 4)).toBe('0.0000');
    expect(formatDecimal('-0.0000', 4)).toBe('0.0000');
    expect(formatDecimal('-0.00005', 4)).toBe('-0.0001');
  });

  it("shows '-' for a missing value and any other text as it came", () => {
    expect(formatDecimal(null, 2)).toBe('-');
    expect(formatDecimal(undefined, 2)).toBe('-');
    expect(formatDecimal('', 2)).toBe('-');
    expect(formatDecimal('1e5', 2)).toBe('1e5');
  });
});

describe('P/L sign and colour', () => {
  it('is green above zero, red below, neutral at zero or unknown', () => {
    expect(decimalSign('12.5')).toBe(1);
    expect(decimalSign('-0.0001')).toBe(-1);
    expect(decimalSign('-0.0000')).toBe(0);
    expect(plClass('3.2')).toBe('text-success');
    expect(plClass('-3.2')).toBe('text-danger');
    expect(plClass('0.0000')).toBe('');
    expect(plClass(null)).toBe('');
  });
});

describe('other formats', () => {
  it('shows local date-times from OANDA nanosecond instants', () => {
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(
      Date.UTC(2025, 9, 3, 13, 58, 35, 702),
    );
    expect(formatDateTime('2025-10-03T13:58:35.702058560Z')).toBe(expected);
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime('not a date')).toBe('not a date');
  });

  it('writes pairs with a slash and counts with a dash when absent', () => {
    expect(formatInstrument('EUR_USD')).toBe('EUR/USD');
    expect(formatCount(3)).toBe('3');
    expect(formatCount(null)).toBe('-');
  });
});

describe('money of several currencies', () => {
  it('shows an amount with its code, grouped, 2 decimals', () => {
    expect(formatMoney('-1359.3769', 'USD')).toBe('-1,359.38 USD');
  });

  it('shows a converted figure with the home code and a listed one per currency, never added', () => {
    expect(formatMoneyFigure({ mode: 'converted', currency: 'USD', amount: '-1359.38', from: ['JPY', 'USD'] })).toBe(
      '-1,359.38 USD',
    );
    const listed = {
      mode: 'listed' as const,
      byCurrency: [
        { currency: 'JPY', amount: '-382286.63' },
        { currency: 'USD', amount: '1200.50' },
      ],
    };
    expect(formatMoneyFigure(listed)).toBe('-382,286.63 JPY · 1,200.50 USD');
    expect(moneyFigureParts(listed).map((p) => p.text)).toEqual(['-382,286.63 JPY', '1,200.50 USD']);
    expect(formatMoneyFigure(null)).toBe('-');
  });
});

describe('formatSignedPercent', () => {
  it('signs a change, rounds exactly and groups; zero has no sign', () => {
    expect(formatSignedPercent('8.0450')).toBe('+8.05 %');
    expect(formatSignedPercent('-1.2')).toBe('-1.20 %');
    expect(formatSignedPercent('1234.5650')).toBe('+1,234.57 %');
    expect(formatSignedPercent('-0.0040')).toBe('0.00 %');
    expect(formatSignedPercent('0.0000')).toBe('0.00 %');
    expect(formatSignedPercent(null)).toBe('-');
  });

  it('signs amounts, exactly, zero unsigned, with their code', () => {
    expect(formatSigned('1234.505', 2)).toBe('+1,234.51');
    expect(formatSigned('-0.004', 2)).toBe('0.00');
    expect(formatSigned('-12', 2)).toBe('-12.00');
    expect(formatSigned('n/a', 2)).toBe('n/a');
    expect(formatSignedMoney('10000', 'USD')).toBe('+10,000.00 USD');
    expect(formatSignedMoney('-500.5', null)).toBe('-500.50');
  });
});

describe('signed and squeezed money', () => {
  it('signs a profit, groups thousands and drops the sign of what rounds to zero', () => {
    expect(formatSignedMoney('120.1')).toBe('+120.10');
    expect(formatSignedMoney('-200')).toBe('-200.00');
    expect(formatSignedMoney('1234567.891', 'JPY')).toBe('+1,234,567.89 JPY');
    expect(formatSignedMoney('-45000', 'JPY')).toBe('-45,000.00 JPY');
    expect(formatSignedMoney('0')).toBe('0.00');
    expect(formatSignedMoney('0.004')).toBe('0.00');
    expect(formatSignedMoney('-0.004', 'USD')).toBe('0.00 USD');
    expect(formatSignedMoney('n/a')).toBe('n/a');
  });

  it('squeezes to three digits and a step, rounding exactly', () => {
    expect(compactMoney('87.6')).toBe('+88');
    expect(compactMoney('-1250.5')).toBe('-1.3k');
    expect(compactMoney('1000')).toBe('+1k');
    expect(compactMoney('999.5')).toBe('+1k');
    expect(compactMoney('9960')).toBe('+10k');
    expect(compactMoney('-45000')).toBe('-45k');
    expect(compactMoney('-382286.63')).toBe('-382k');
    expect(compactMoney('999999')).toBe('+1M');
    expect(compactMoney('-12345678.9')).toBe('-12M');
    expect(compactMoney('2500000000')).toBe('+2.5B');
    // 1.45 is 1.4499999999999999556… as a double: a float rounds it down to 1.4.
    expect(compactMoney('1450')).toBe('+1.5k');
  });

  it('keeps cents below one and shows zero unsigned', () => {
    expect(compactMoney('-0.35')).toBe('-0.35');
    expect(compactMoney('0.004')).toBe('0');
    expect(compactMoney('0.00')).toBe('0');
    expect(compactMoney('-0.0000')).toBe('0');
  });
});
