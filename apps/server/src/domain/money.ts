/**
 * Money as OANDA books it: integer ten-thousandths of the account currency ("minor units" here),
 * held in plain numbers. Sums of integers below 2^53 are exact, so every total a trader sees
 * matches the broker to the last digit (docs/decisions/003-broker-numbers.md), without a decimal
 * library or a BigInt per trade in the overview's 100,000-trade pass.
 *
 * Decimal strings are read digit by digit (never through a binary fraction); numbers that already
 * went through Number() are scaled and rounded, which recovers the digits of any 4-decimal amount
 * below 2^53 / 10,000 (about 900 billion).
 */

/** Minor units per currency unit: OANDA's 4 decimals of account currency. */
export const MINOR_PER_UNIT = 10_000;
const MONEY_DECIMALS = 4;

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?$/;

function checked(minor: number, what: unknown): number {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount out of exact range: ${String(what)}`);
  return minor === 0 ? 0 : minor;
}

/**
 * Minor units of the decimal text in `text` from `start` to `end` in the plain form ('-12.3456': a sign, digits, a
 * point and digits, no spaces) by char code, or NaN for any other text (minorUnitsOf then reads it with its regular
 * expression). The Overview reads three amounts per trade, 100,000 trades per overview; the balance reads two per
 * trade out of one text of every trade (minorUnitsIn).
 */
function plainMinorUnits(text: string, start: number, end: number): number {
  let i = start;
  const first = text.charCodeAt(start);
  const negative = first === 45; /* - */
  if (negative || first === 43 /* + */) i++;
  let whole = 0;
  let wholeDigits = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    whole = whole * 10 + c;
    wholeDigits++;
  }
  if (wholeDigits === 0) return Number.NaN;
  let fraction = 0;
  if (i < end) {
    if (text.charCodeAt(i) !== 46 /* . */) return Number.NaN;
    i++;
    let place = 0;
    for (; i < end; i++) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return Number.NaN;
      if (place < MONEY_DECIMALS) fraction = fraction * 10 + c;
      else if (place === MONEY_DECIMALS && c >= 5) fraction += 1;
      place++;
    }
    for (; place < MONEY_DECIMALS; place++) fraction *= 10;
  }
  const magnitude = whole * MINOR_PER_UNIT + fraction;
  const minor = negative ? -magnitude : magnitude;
  if (!Number.isSafeInteger(minor)) return checked(minor, text.slice(start, end));
  return minor === 0 ? 0 : minor;
}

/**
 * Minor units of a decimal string, exactly; digits past the 4th decimal round half away from zero.
 * Throws for text that is not a decimal number or an amount beyond the exact range.
 */
export function minorUnitsOf(text: string): number {
  const plain = plainMinorUnits(text, 0, text.length);
  if (!Number.isNaN(plain)) return plain;
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`not a decimal number: ${JSON.stringify(text)}`);
  const fraction = match[3] ?? '';
  let magnitude =
    Number(match[2]) * MINOR_PER_UNIT + Number(fraction.slice(0, MONEY_DECIMALS).padEnd(MONEY_DECIMALS, '0'));
  if (fraction.length > MONEY_DECIMALS && fraction.charCodeAt(MONEY_DECIMALS) >= 53 /* '5' */) magnitude += 1;
  return checked(match[1] === '-' ? -magnitude : magnitude, text);
}

/** minorUnitsOf of `text.slice(start, end)`, without making that string when it is in the plain form. */
export function minorUnitsIn(text: string, start: number, end: number): number {
  const plain = plainMinorUnits(text, start, end);
  return Number.isNaN(plain) ? minorUnitsOf(text.slice(start, end)) : plain;
}

/** Minor units of an amount already parsed to a number (the analytics engine's inputs). */
export function toMinorUnits(value: number): number {
  const minor = Math.round(value * MINOR_PER_UNIT);
  return minor === 0 ? 0 : minor;
}

export function fromMinorUnits(minor: number): number {
  return minor / MINOR_PER_UNIT;
}

/** Rounds minor units half away from zero to `decimals` (0 … 4) decimals of the currency; still minor units. */
export function roundMinorUnits(minor: number, decimals: number): number {
  const step = 10 ** (MONEY_DECIMALS - decimals);
  if (step === 1) return minor;
  const magnitude = Math.abs(minor);
  const rounded = Math.floor((magnitude + step / 2) / step) * step;
  return minor < 0 && rounded !== 0 ? -rounded : rounded;
}

/**
 * Mean of an exact sum over `count` items, rounded half away from zero to `decimals` decimals of
 * the currency, in minor units. Integer arithmetic only: no binary fraction in between.
 */
export function meanMinorUnits(sumMinor: number, count: number, decimals = MONEY_DECIMALS): number {
  if (!Number.isSafeInteger(sumMinor) || !Number.isSafeInteger(count) || count <= 0)
    throw new RangeError(`cannot average ${sumMinor} over ${count}`);
  const divisor = count * 10 ** (MONEY_DECIMALS - decimals);
  const magnitude = Math.abs(sumMinor);
  // ⌊(2·|sum| + divisor) / (2·divisor)⌋, with the doubling kept below 2^53 for any safe sum.
  const quotient = Math.floor(magnitude / divisor);
  const remainder = magnitude - quotient * divisor;
  const rounded = (quotient + (remainder * 2 >= divisor ? 1 : 0)) * (divisor / count);
  return checked(sumMinor < 0 ? -rounded : rounded, sumMinor);
}

/** The exact sum of decimal strings, in minor units. */
function sumMinorUnits(values: Iterable<string>): number {
  let sum = 0;
  for (const value of values) sum += minorUnitsOf(value);
  return checked(sum, 'sum');
}

/** '-1234.5600': minor units as a decimal string with `decimals` (0 … 4) places, rounded exactly. */
export function formatMinorUnits(minor: number, decimals = MONEY_DECIMALS): string {
  const rounded = roundMinorUnits(minor, decimals);
  const magnitude = Math.abs(rounded);
  const whole = Math.floor(magnitude / MINOR_PER_UNIT);
  const fraction = String(magnitude - whole * MINOR_PER_UNIT)
    .padStart(MONEY_DECIMALS, '0')
    .slice(0, decimals);
  return `${rounded < 0 ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
}

/** The exact sum of decimal strings as a decimal string with 4 places; '0.0000' for none. */
export function sumMoney(values: Iterable<string>): string {
  return formatMinorUnits(sumMinorUnits(values));
}

/** Minor units as the amount a trader reads: currency units rounded to 2 decimals (half away from zero). */
export function moneyValue(minor: number): number {
  const value = fromMinorUnits(roundMinorUnits(minor, 2));
  return value === 0 ? 0 : value;
}
