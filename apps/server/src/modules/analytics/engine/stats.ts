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

/**
 * Positions 0 … count−1 ordered by `times` (epoch ms), ties broken by `tie`. Packs (second,
 * position) into one double per item so the engine's native typed-array sort does the bulk of the
 * work, then orders the rare runs that share a second with the full comparison. Falls back to a
 * comparison sort when the packed keys would exceed 2^53 (decades of history × millions of trades).
 */
export function orderByTime(times: Float64Array, count: number, tie: (a: number, b: number) => number): Int32Array {
  const order = new Int32Array(count);
  const compare = (a: number, b: number): number => times[a]! - times[b]! || tie(a, b);
  let sorted = true;
  for (let k = 1; k < count && sorted; k++) if (compare(k - 1, k) > 0) sorted = false;
  if (sorted) {
    for (let k = 0; k < count; k++) order[k] = k;
    return order;
  }
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < count; k++) {
    const time = times[k]!;
    if (time < min) min = time;
    if (time > max) max = time;
  }
  const minSecond = Math.floor(min / 1000);
  const span = Math.floor(max / 1000) - minSecond + 1;
  if (span * count >= Number.MAX_SAFE_INTEGER) {
    for (let k = 0; k < count; k++) order[k] = k;
    return order.sort(compare);
  }
  const keys = new Float64Array(count);
  for (let k = 0; k < count; k++) keys[k] = (Math.floor(times[k]! / 1000) - minSecond) * count + k;
  keys.sort();
  for (let k = 0; k < count; k++) order[k] = keys[k]! % count;
  let start = 0;
  for (let k = 1; k <= count; k++) {
    if (k === count || Math.floor(times[order[k]!]! / 1000) !== Math.floor(times[order[start]!]! / 1000)) {
      if (k - start > 1) order.subarray(start, k).sort(compare);
      start = k;
    }
  }
  return order;
}
