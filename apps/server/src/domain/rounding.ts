/**
 * The one rounding rule for numbers the trader reads: half away from zero, robust to binary noise
 * (1.275 → 1.28 although 1.275 * 100 is 127.49999999999999 in floating point). Money 2 decimals,
 * rates (percentages) 1, ratios 2.
 */
export function round(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  const scale = 10 ** decimals;
  const scaled = Number((Math.abs(value) * scale).toPrecision(15));
  const rounded = (Math.sign(value) * Math.round(scaled)) / scale;
  return rounded === 0 ? 0 : rounded;
}

export const roundMoney = (value: number): number => round(value, 2);
export const roundRate = (value: number): number => round(value, 1);
export const roundRatio = (value: number): number => round(value, 2);

/** Percentage part / whole, 1 decimal; null when whole is 0. */
export function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : roundRate((part / whole) * 100);
}
