import {
  compareDecimals,
  groupDecimal,
  isDecimal,
  multiplyDecimals,
  roundDecimal,
  type MoneyFigure,
} from '@pipsense/contract';

/** What a table cell shows when the broker sent no value. */
export const EMPTY_CELL = '-';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A broker decimal string with exactly `places` decimals, rounded half away from zero on the digits themselves, so
 * no value is ever pushed through a binary float ('1.175505' → '1.17551' at 5 places). Null shows '-'; a string that
 * is not a plain decimal is shown as it came rather than guessed at.
 */
export function formatDecimal(value: string | null | undefined, places: number): string {
  if (value === null || value === undefined || value === '') return EMPTY_CELL;
  const match = DECIMAL.exec(value.trim());
  if (!match) return value;
  const [, sign = '', whole = '0', fraction = ''] = match;
  let digits: string;
  if (fraction.length <= places) {
    digits = whole + fraction.padEnd(places, '0');
  } else {
    const kept = BigInt(whole + fraction.slice(0, places));
    const roundUp = Number(fraction.charAt(places)) >= 5;
    digits = (roundUp ? kept + 1n : kept).toString().padStart(places + 1, '0');
  }
  const intPart = places > 0 ? digits.slice(0, -places) : digits;
  const fracPart = places > 0 ? digits.slice(-places) : '';
  const normalised = (intPart.replace(/^0+(?=\d)/, '') || '0') + (fracPart ? `.${fracPart}` : '');
  // '-0.00' would read as a loss; a value that rounds to zero has no sign.
  const isZero = /^[0.]+$/.test(normalised);
  return (sign && !isZero ? '-' : '') + normalised;
}

/** The sign of a decimal string, for colouring P/L: 1, -1, or 0 (also for null). */
export function decimalSign(value: string | null | undefined): -1 | 0 | 1 {
  if (!value) return 0;
  const match = DECIMAL.exec(value.trim());
  if (!match || /^[0]*$/.test((match[2] ?? '') + (match[3] ?? ''))) return 0;
  return match[1] === '-' ? -1 : 1;
}

/** CoreUI text colour for a profit or loss: green above zero, red below, neutral at zero or unknown. */
export function plClass(value: string | null | undefined): string {
  const sign = decimalSign(value);
  return sign > 0 ? 'text-success' : sign < 0 ? 'text-danger' : '';
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** An RFC 3339 instant as a local date-time; '-' when absent. OANDA's nine fractional digits parse fine. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return EMPTY_CELL;
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : dateTime.format(time);
}

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** The local date and time of an instant apart, for a table cell that shows them on two lines. */
export function dateTimeParts(value: string | null | undefined): { date: string; time: string } | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : { date: dateOnly.format(time), time: timeOnly.format(time) };
}

/** EUR_USD → EUR/USD, the way traders write a pair. */
export function formatInstrument(instrument: string): string {
  return instrument.replace('_', '/');
}

/** Whole numbers such as counts, '-' when absent. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? EMPTY_CELL : value.toLocaleString();
}

/** An amount with its currency code: '-1,359.38 USD' (2 decimals, thousands grouped, exact). */
export function formatMoney(amount: string, currency: string): string {
  const text = isDecimal(amount) ? groupDecimal(amount, 2) : amount;
  return currency ? `${text} ${currency}` : text;
}

/** Thousands, millions, billions: the steps of compactMoney. */
const COMPACT_STEPS = [
  { suffix: '', scale: '1' },
  { suffix: 'k', scale: '0.001' },
  { suffix: 'M', scale: '0.000001' },
  { suffix: 'B', scale: '0.000000001' },
] as const;

/**
 * A profit or loss squeezed for a narrow cell, at most three digits and a sign: '+88', '-1.3k', '-382k', '+12M',
 * '+0.35' below one, '0' at zero. Rounded exactly (half away from zero), never through a float; the full amount
 * belongs in the cell's label.
 */
export function compactMoney(amount: string): string {
  if (!isDecimal(amount)) return amount;
  const sign = decimalSign(roundDecimal(amount, 2));
  if (sign === 0) return '0';
  const prefix = sign > 0 ? '+' : '-';
  const size = amount.trim().replace(/^-/, '');
  if (compareDecimals(size, '1') < 0) return `${prefix}${roundDecimal(size, 2)}`;
  // The first step under a thousand of it; billions however many.
  const step =
    COMPACT_STEPS.find(({ scale }) => compareDecimals(roundDecimal(multiplyDecimals(size, scale), 0), '1000') < 0) ??
    COMPACT_STEPS[3];
  const scaled = multiplyDecimals(size, step.scale);
  // One decimal while it still says something ('1.3k'), none from ten up ('13k') and none for whole units.
  const tenths = roundDecimal(scaled, 1);
  const text = step.suffix && compareDecimals(tenths, '10') < 0 ? tenths.replace(/\.0$/, '') : roundDecimal(scaled, 0);
  return `${prefix}${text}${step.suffix}`;
}

/**
 * A signed figure, exact and grouped: '+1,234.50', '-12.00' (the hyphen-minus every money figure uses), '0.00' (zero
 * has no sign). A string that is not a plain decimal is shown as it came.
 */
export function formatSigned(value: string, places: number): string {
  if (!isDecimal(value)) return value;
  const text = groupDecimal(value, places);
  if (text.startsWith('-')) return /[1-9]/.test(text) ? text : text.slice(1);
  return /[1-9]/.test(text) ? `+${text}` : text;
}

/** A return in percent (a decimal string, '8.0450' for 8.045 %), signed with 2 decimals: '+8.05 %', '-1.20 %'. */
export function formatSignedPercent(value: string | null | undefined, places = 2): string {
  if (value === null || value === undefined || !isDecimal(value)) return value || EMPTY_CELL;
  return `${formatSigned(value, places)} %`;
}

/**
 * A profit or loss with its sign and its currency code when given: '+10,000.00 USD', '-45,000.00 JPY', '0.00' (what
 * rounds to zero has no sign); 2 decimals, thousands grouped, exact.
 */
export function formatSignedMoney(amount: string, currency: string | null = null): string {
  const text = formatSigned(amount, 2);
  return currency ? `${text} ${currency}` : text;
}

/**
 * A money figure under the currency rule (docs/decisions/024-currencies-never-mixed.md) as the parts a screen shows
 * side by side: one amount with its code (one currency, or converted into the home currency), or one per currency.
 */
export function moneyFigureParts(figure: MoneyFigure): Array<{ currency: string; amount: string; text: string }> {
  const parts = figure.mode === 'listed' ? figure.byCurrency : [{ currency: figure.currency, amount: figure.amount }];
  return parts.map((part) => ({ ...part, text: formatMoney(part.amount, part.currency) }));
}

/** The same in one line: '-1,359.38 USD', or '-382,286.63 JPY · 1,200.50 USD' when listed. */
export function formatMoneyFigure(figure: MoneyFigure | null | undefined): string {
  if (!figure) return EMPTY_CELL;
  return moneyFigureParts(figure)
    .map((part) => part.text)
    .join(' · ');
}

const KB = 1024;
const MB = 1024 * 1024;
const oneDecimal = (value: number) => value.toFixed(1).replace(/\.0$/, '');

/** '812 bytes', '14.2 KB', '63.2 MB' (binary units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < MB) return `${oneDecimal(bytes / KB)} KB`;
  return `${oneDecimal(bytes / MB)} MB`;
}

/** An R-multiple with its sign and two decimals: '+1.50R', '-1.00R'; '-' while unknown (an open trade). */
export function formatR(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return EMPTY_CELL;
  const fixed = Math.abs(value).toFixed(2);
  if (Number(fixed) === 0) return '0.00R';
  return `${value > 0 ? '+' : '-'}${fixed}R`;
}
