import { decimalPlaces, groupDecimal, isDecimal, signOf } from '../../../domain/decimal';
import { displayInstrument } from '../tools/market-names';
import { formatInstant } from '../tools/origin-note';

/** '1,234.50 USD': money always with 2 decimals, rounded exactly, thousands grouped. */
export function money(amount: string | null, currency: string | null): string {
  if (amount === null) return 'unknown';
  return `${groupDecimal(amount, 2)}${currency ? ` ${currency}` : ''}`;
}

/** '+12.30 USD' / '-4.00 USD': P/L with its sign. */
export function pl(amount: string, currency: string | null): string {
  return `${signOf(amount) > 0 ? '+' : ''}${money(amount, currency)}`;
}

export const percent = (value: number | null, decimals = 2): string =>
  value === null ? 'unknown' : `${value.toFixed(decimals)}%`;

export const when = (iso: string | null, timeZone: string): string => (iso ? formatInstant(iso, timeZone) : 'unknown');

export const pair = displayInstrument;

/** '10,000' units: grouped, with the decimals OANDA gave (none for whole units). */
export const quantity = (units: string): string =>
  isDecimal(units) ? groupDecimal(units, decimalPlaces(units)) : units;
