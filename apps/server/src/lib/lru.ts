/**
 * A least-recently-used map, bounded by entries and, when `sizeOf` is given, by the total size of its entries: an
 * entry read or written moves to the back, and the front ones are dropped while either bound is passed. An entry
 * larger than the size bound on its own is not kept at all.
 */
export function createLru<V>(bounds: {
  maxEntries: number;
  maxSize?: number;
  sizeOf?: (key: string, value: V) => number;
}) {
  const entries = new Map<string, V>();
  const sizeOf = bounds.sizeOf ?? (() => 0);
  const maxSize = bounds.maxSize ?? Infinity;
  let size = 0;

  function drop(key: string): void {
    if (!entries.has(key)) return;
    size -= sizeOf(key, entries.get(key)!);
    entries.delete(key);
  }

  return {
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },

    set(key: string, value: V): void {
      drop(key);
      const added = sizeOf(key, value);
      if (added > maxSize) return;
      entries.set(key, value);
      size += added;
      while (entries.size > bounds.maxEntries || size > maxSize) drop(entries.keys().next().value!);
    },

    delete: drop,

    get size(): number {
      return entries.size;
    },
  };
}

/**
 * An LRU of text (or of the bytes of text) bounded by entries and by the length of keys and values together
 * (characters, or bytes for a Buffer).
 */
export const createTextLru = <V extends string | Buffer = string>(bounds: { maxEntries: number; maxChars: number }) =>
  createLru<V>({
    maxEntries: bounds.maxEntries,
    maxSize: bounds.maxChars,
    sizeOf: (key, value) => key.length + value.length,
  });
