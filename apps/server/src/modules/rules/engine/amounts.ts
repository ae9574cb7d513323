import { formatMinorUnits } from '../../../domain/money';

/**
 * Percents of amounts in exact minor units (domain/money.ts: ten-thousandths of the account currency). A percent
 * param has at most 4 decimals (the contract checks it), so it is an integer of ten-thousandths of a percent, and
 * every product below is an exact BigInt before its one rounding (half away from zero).
 */

/** A percent (5 = 5 %) as an integer of ten-thousandths of a percent. */
function percentUnits(percent: number): bigint {
  return BigInt(Math.round(percent * 10_000));
}

/** |n| / d rounded half away from zero, with the sign of n (d > 0). */
function divideRounded(n: bigint, d: bigint): bigint {
  const magnitude = n < 0n ? -n : n;
  const q = (magnitude * 2n + d) / (2n * d);
  return n < 0n ? -q : q;
}

/** `percent` % of an amount in minor units, rounded to minor units. */
export function percentOf(percent: number, minor: number): number {
  return Number(divideRounded(BigInt(minor) * percentUnits(percent), 1_000_000n));
}

/** a × 100 / b in percent with 2 decimals (a decimal string); null when b is 0 or less. */
export function ratioPercent(a: number, b: number): string | null {
  if (b <= 0) return null;
  const hundredths = divideRounded(BigInt(a) * 10_000n, BigInt(b));
  return formatHundredths(hundredths);
}

/** −1, 0 or 1: how `value` compares with `percent` % of `of` (exact; both in the same units). */
export function comparePercent(value: number, percent: number, of: number): number {
  const left = BigInt(value) * 1_000_000n;
  const right = percentUnits(percent) * BigInt(of);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The amount whose `percent` % is `minor` (`minor` × 100 / percent), rounded to minor units; null for 0 %. */
export function amountOfPercent(minor: number, percent: number): number | null {
  const units = percentUnits(percent);
  if (units <= 0n) return null;
  return Number(divideRounded(BigInt(minor) * 1_000_000n, units));
}

/** A percent param as a decimal string ('62.5'). */
export function percentText(percent: number): string {
  return formatHundredths(percentUnits(percent), 4).replace(/\.?0+$/, '');
}

function formatHundredths(units: bigint, decimals = 2): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Minor units as the engine answers money: an exact decimal string with 4 places (docs/money.md). */
export const money = (minor: number): string => formatMinorUnits(minor);
