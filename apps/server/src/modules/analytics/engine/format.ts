/**
 * Rounding and display formats shared by cards, summary and insights, so the same number always
 * reads the same way: money 2 decimals with thousands separators, rates 1 decimal, ratios 2.
 */
import { HOUR_MS, MINUTE_MS } from '../../../domain/calendar';
import { round } from '../../../domain/rounding';

const grouped = new Map<number, Intl.NumberFormat>();
function groupedFormat(decimals: number): Intl.NumberFormat {
  let format = grouped.get(decimals);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    grouped.set(decimals, format);
  }
  return format;
}

/** '1,234.50' — the value is rounded first so that -0.001 never shows as '-0.00'. */
export function formatNumber(value: number, decimals: number): string {
  const rounded = round(value, decimals);
  return groupedFormat(decimals).format(rounded === 0 ? 0 : rounded);
}

/** '-1,234.56 USD'; no currency code when the accounts use several. */
export function formatMoney(value: number, currency: string | null): string {
  const text = formatNumber(value, 2);
  return currency ? `${text} ${currency}` : text;
}

/** Whole counts with thousands separators: '1,455'. */
export function count(value: number): string {
  return formatNumber(value, 0);
}

/** '10,000 units', '7.5 units' (OANDA units can be fractional on some instruments). */
export function formatUnits(value: number): string {
  const rounded = round(value, 2);
  const decimals = Number.isInteger(rounded) ? 0 : Number.isInteger(rounded * 10) ? 1 : 2;
  return `${formatNumber(rounded, decimals)} units`;
}

export function formatPercent(value: number): string {
  return `${formatNumber(value, 1)}%`;
}

/** '1.25R', '-0.80R'. */
export function formatR(value: number): string {
  return `${formatNumber(value, 2)}R`;
}

export function formatRatio(value: number): string {
  return formatNumber(value, 2);
}

/** Human duration: '45s', '12m', '3h 12m', '2d 4h' (rounded to the last unit shown). */
export function formatDuration(ms: number): string {
  const value = Math.max(0, ms);
  if (value < MINUTE_MS - 500) return `${Math.round(value / 1000)}s`;
  const minutes = Math.round(value / MINUTE_MS);
  if (minutes < 60) return `${minutes}m`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
  const hours = Math.round(value / HOUR_MS);
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** '08:00–09:00' */
export function hourLabel(hour: number): string {
  const pad = (h: number): string => String(h % 24).padStart(2, '0');
  return `${pad(hour)}:00–${pad(hour + 1)}:00`;
}

export function minutesOf(ms: number): number {
  return round(ms / MINUTE_MS, 1);
}
