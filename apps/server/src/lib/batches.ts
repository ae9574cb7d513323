/** `items` cut into runs of at most `size` (the last one shorter): rows per statement within a database's limits. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
