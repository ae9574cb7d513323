import type { OverviewBook } from './overview-trades';

/**
 * Trades kept in memory per instance by default, over every user's books: about 35 MB of heap per 100,000 trades
 * (measured: 355 bytes a trade), so about 70 MB at most.
 */
const DEFAULT_BOOK_CACHE_TRADES = 200_000;

interface Entry {
  version: number;
  book: OverviewBook;
}

/**
 * The books (overview-trades.ts) of the users who looked at their Overview lately, each held for the data version it
 * was read at: a filtered view maps no row, it filters the book in memory. The version is the caller's, read from
 * the database per request, so every instance serves what is stored: a book of an older version is never used, and
 * is replaced on the next read. Bounded by trades held: the least recently used books go first; a book larger than
 * the whole budget is never kept (`fits`). One read per key and version at a time, however many callers wait on it.
 */
export function createBookCache(capacity = DEFAULT_BOOK_CACHE_TRADES) {
  const entries = new Map<string, Entry>();
  const loading = new Map<string, { version: number; book: Promise<OverviewBook> }>();
  let held = 0;

  function drop(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    held -= entry.book.trades.length;
  }

  function keep(key: string, version: number, book: OverviewBook): void {
    drop(key);
    if (book.trades.length > capacity) return;
    for (const [oldest] of entries) {
      if (held + book.trades.length <= capacity) break;
      drop(oldest);
    }
    entries.set(key, { version, book });
    held += book.trades.length;
  }

  return {
    /** Whether a book of this many trades can be kept at all. */
    fits: (trades: number): boolean => trades <= capacity,

    /** The book of `version` when it is held (now the most recently used), else undefined. */
    held(key: string, version: number): OverviewBook | undefined {
      const entry = entries.get(key);
      if (!entry || entry.version !== version) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.book;
    },

    /** The book of `version`: held, being read, or read now by `read` and kept. */
    async get(key: string, version: number, read: () => Promise<OverviewBook>): Promise<OverviewBook> {
      const book = this.held(key, version);
      if (book) return book;
      const running = loading.get(key);
      if (running && running.version === version) return running.book;
      const reading = read();
      const mine = { version, book: reading };
      loading.set(key, mine);
      try {
        const read = await reading;
        // A newer version may have been read meanwhile: an older one never replaces it.
        const current = entries.get(key);
        if (!current || current.version <= version) keep(key, version, read);
        return read;
      } finally {
        if (loading.get(key) === mine) loading.delete(key);
      }
    },

    /** Trades held over every book (tests, the benchmark). */
    size: (): number => held,

    clear(): void {
      entries.clear();
      held = 0;
    },
  };
}
export type BookCache = ReturnType<typeof createBookCache>;
