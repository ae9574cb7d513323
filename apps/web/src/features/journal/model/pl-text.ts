import { decimalSign, formatDecimal } from '../../../components/data/format';

/** A P/L decimal string with two decimals and its sign: '+120.50', '-45.20', '0.00'. */
export function signedPL(value: string): string {
  const text = formatDecimal(value, 2);
  return decimalSign(value) > 0 ? `+${text}` : text;
}

/** The same squeezed for a phone's calendar cell: '+120', '-1.2k'. */
export function compactPL(value: string): string {
  const amount = Number(value);
  if (!Number.isFinite(amount) || decimalSign(value) === 0) return '0';
  const size = Math.abs(amount);
  const body = size >= 1000 ? `${(size / 1000).toFixed(size >= 10_000 ? 0 : 1)}k` : size.toFixed(0);
  return `${amount > 0 ? '+' : '-'}${body}`;
}
