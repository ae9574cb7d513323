/**
 * A least-recently-used map of text values, bounded by entries and by total length: an entry read or written moves
 * to the back, and the front ones are dropped while either bound is passed. A value longer than the length bound is
 * not kept at all.
 */
export function createTextLru(bounds: { maxEntries: number; maxChars: number }) {
  const entries = new Map<string, string>();
  let chars = 0;

  function drop(key: string): void {
    const value = entries.get(key);
    if (value === undefined) return;
    entries.delete(key);
    chars -= key.length + value.length;
  }

  return {
    get(key: string): string | undefined {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },

    set(key: string, value: string): void {
      drop(key);
      if (key.length + value.length > bounds.maxChars) return;
      entries.set(key, value);
      chars += key.length + value.length;
      while (entries.size > bounds.maxEntries || chars > bounds.maxChars) drop(entries.keys().next().value!);
    },

    get size(): number {
      return entries.size;
    },

    /** Characters held, keys included. */
    get chars(): number {
      return chars;
    },
  };
}
export type TextLru = ReturnType<typeof createTextLru>;
