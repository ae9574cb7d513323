/**
 * Exact arithmetic on OANDA's decimal strings: sums and differences shown to a trader must match the
 * broker to the last displayed digit, which binary floating point cannot promise.
 */

interface Scaled {
  units: bigint;
  scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

function parse(text: string): Scaled {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`not a decimal number: ${JSON.stringify(text)}`);
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2]}${fraction}`);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

function rescale(value: Scaled, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

function format({ units, scale }: Scaled): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${negative && units !== 0n ? '-' : ''}${whole}${fraction}`;
}

export function isDecimal(text: string | null | undefined): text is string {
  return typeof text === 'string' && DECIMAL.test(text.trim());
}

/** The exact sum, with as many decimals as the most precise term; '0' for none. */
export function sumDecimals(values: ReadonlyArray<string>): string {
  const parsed = values.map(parse);
  // A loop, not Math.max(...): a spread of 300,000 arguments overflows the stack (an imported report's totals).
  let scale = 0;
  for (const p of parsed) if (p.scale > scale) scale = p.scale;
  return format({ units: parsed.reduce((sum, p) => sum + rescale(p, scale), 0n), scale });
}

export function subtractDecimals(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  return format({ units: rescale(x, scale) - rescale(y, scale), scale });
}

export function negateDecimal(a: string): string {
  const x = parse(a);
  return format({ units: -x.units, scale: x.scale });
}

/** The exact product ('0.50' × '100000' → '50000.00'), with the decimals of both factors. */
export function multiplyDecimals(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  return format({ units: x.units * y.units, scale: x.scale + y.scale });
}

/**
 * a / b with `places` decimals, rounded half away from zero (the inverse of an exchange rate, which no finite decimal
 * holds exactly). Throws for a zero divisor.
 */
export function divideDecimals(a: string, b: string, places: number): string {
  const x = parse(a);
  const y = parse(b);
  if (y.units === 0n) throw new RangeError(`cannot divide ${a} by zero`);
  // a / b = (x.units / 10^x.scale) / (y.units / 10^y.scale); scaled to `places` + 1 digits, then rounded once.
  const numerator = x.units * 10n ** BigInt(places + 1 + y.scale);
  const denominator = y.units * 10n ** BigInt(x.scale);
  const negative = numerator < 0n !== denominator < 0n;
  const magnitude = (numerator < 0n ? -numerator : numerator) / (denominator < 0n ? -denominator : denominator);
  const rounded = (magnitude + 5n) / 10n;
  return format({ units: negative ? -rounded : rounded, scale: places });
}

/** The same number without trailing fraction zeros ('50000.00' → '50000', '1.2500' → '1.25'). */
export function trimDecimal(a: string): string {
  return format(parse(a))
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

/** -1, 0 or 1. */
export function compareDecimals(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const d = rescale(x, scale) - rescale(y, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

export const signOf = (a: string): number => compareDecimals(a, '0');

/** Rounds half away from zero to `decimals` places, exactly. */
export function roundDecimal(a: string, decimals: number): string {
  const x = parse(a);
  if (x.scale <= decimals) return format({ units: rescale(x, decimals), scale: decimals });
  const factor = 10n ** BigInt(x.scale - decimals);
  const magnitude = x.units < 0n ? -x.units : x.units;
  let quotient = magnitude / factor;
  if ((magnitude % factor) * 2n >= factor) quotient += 1n;
  return format({ units: x.units < 0n ? -quotient : quotient, scale: decimals });
}

/** Decimal places of a decimal string ('1.08500' → 5). */
export function decimalPlaces(a: string): number {
  return parse(a).scale;
}

/** '1234567.891' → '1,234,567.89' with `decimals` places (rounded exactly). */
export function groupDecimal(a: string, decimals: number): string {
  const rounded = roundDecimal(a, decimals);
  const negative = rounded.startsWith('-');
  const [whole = '0', fraction] = (negative ? rounded.slice(1) : rounded).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}

/**
 * The exact sum per currency, ordered by currency code: amounts of several currencies are never added into one
 * (docs/decisions/024-currencies-never-mixed.md).
 */
export function sumsByCurrency(
  items: Iterable<{ currency: string; amount: string }>,
): Array<{ currency: string; amount: string }> {
  const groups = new Map<string, string[]>();
  for (const { currency, amount } of items) {
    const group = groups.get(currency);
    if (group) group.push(amount);
    else groups.set(currency, [amount]);
  }
  return [...groups.keys()].sort().map((currency) => ({ currency, amount: sumDecimals(groups.get(currency)!) }));
}
