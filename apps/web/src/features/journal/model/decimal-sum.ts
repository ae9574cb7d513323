const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * The exact sum of decimal strings (the server's P/L text), so a week's total is never off by a float's rounding.
 * Text that is not a plain decimal counts as 0. The result keeps the most decimals any addend had.
 */
export function sumDecimals(values: readonly string[]): string {
  const parsed = values.map((v) => DECIMAL.exec(v.trim())).filter((m): m is RegExpExecArray => m !== null);
  const places = Math.max(0, ...parsed.map((m) => (m[3] ?? '').length));
  let total = 0n;
  for (const [, sign, whole = '0', fraction = ''] of parsed) {
    const units = BigInt(whole + fraction.padEnd(places, '0'));
    total += sign === '-' ? -units : units;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(places + 1, '0');
  const text = places > 0 ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return negative ? `-${text}` : text;
}
