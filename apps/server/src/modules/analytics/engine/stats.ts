/**
 * Rearranges values[0 … count−1] so that values[k] holds the k-th smallest (Hoare's quickselect,
 * median-of-three pivot): O(n), where a sort would be O(n log n).
 */
function selectInPlace(values: Float64Array, count: number, k: number): number {
  let left = 0;
  let right = count - 1;
  while (right > left) {
    const mid = (left + right) >> 1;
    const a = values[left]!;
    const b = values[mid]!;
    const c = values[right]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i] = values[j]!;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return values[k]!;
}

/** Median of the first `count` values (reorders them). NaN when count is 0. */
export function medianInPlace(values: Float64Array, count: number): number {
  if (count === 0) return Number.NaN;
  const middle = count >> 1;
  const upper = selectInPlace(values, count, middle);
  if (count % 2 === 1) return upper;
  // After selection everything left of `middle` is ≤ upper: the lower middle is their maximum.
  let lower = values[0]!;
  for (let i = 1; i < middle; i++) if (values[i]! > lower) lower = values[i]!;
  return (lower + upper) / 2;
}

export function median(values: readonly number[]): number {
  return medianInPlace(Float64Array.from(values), values.length);
}

/** Sample standard deviation (n − 1); NaN below two values. */
export function sampleStdDev(values: readonly number[], mean: number): number {
  if (values.length < 2) return Number.NaN;
  let sum = 0;
  for (const value of values) sum += (value - mean) ** 2;
  return Math.sqrt(sum / (values.length - 1));
}

/** Trade ids are digit strings; compare them as numbers ('999' < '1000'). */
export function compareTradeIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Money is summed in integer ten-thousandths (OANDA's 4 decimals), so sums are exact. */
export function toTenThousandths(value: number): number {
  return Math.round(value * 10_000);
}

export function fromTenThousandths(value: number): number {
  return value / 10_000;
}
