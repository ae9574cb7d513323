import { createTextLru } from '../../lib/lru';
import type { TradeFilters } from '@pipsense/contract';

/** Pages kept per instance, and the bytes they may hold together (a 100-row page is about 100,000). */
const MAX_PAGES = 2000;
const MAX_CHARS = 24 * 1024 * 1024;

/**
 * The request as a cache key: the filter's fields in name order without the unset ones, a tag list sorted and
 * without repeats (a trade with any of the tags: the order asked in changes nothing), then page and limit.
 */
export function tradeListQueryKey(page: number, limit: number, filter: Partial<TradeFilters>): string {
  const fields: Array<[string, unknown]> = [];
  for (const name of Object.keys(filter).sort()) {
    const value = filter[name as keyof TradeFilters];
    if (value === undefined) continue;
    fields.push([name, name === 'tag' && Array.isArray(value) ? [...new Set(value)].sort() : value]);
  }
  return `${page}/${limit}/${JSON.stringify(fields)}`;
}

/**
 * The trade list's pages as the JSON the API sends, encoded once (UTF-8 bytes: a hit is written to the socket as
 * it is, without measuring and encoding 8 KB of text again on each request), kept per instance (a bounded LRU) by user, the user's list
 * version (db/data-versions.ts `listVersionOf`: it moves with every write of anything the list shows, on whichever
 * instance) and the normalised request. A page is computed once per version: later requests for it, on this
 * instance, get the same text without a query for the page or a serialisation. Requests that miss at the same time
 * share one computation.
 */
export function createTradeListCache(bounds = { maxEntries: MAX_PAGES, maxChars: MAX_CHARS }) {
  const pages = createTextLru<Buffer>(bounds);
  const computing = new Map<string, Promise<Buffer>>();

  return {
    /** The page's JSON for this version: cached, being computed, or computed now by `compute` (its text). */
    async json(userId: string, version: string, queryKey: string, compute: () => Promise<string>): Promise<Buffer> {
      const key = `${userId}\n${version}\n${queryKey}`;
      const cached = pages.get(key);
      if (cached !== undefined) return cached;
      const running = computing.get(key);
      if (running) return running;
      const work = compute()
        .then((text) => {
          const bytes = Buffer.from(text);
          pages.set(key, bytes);
          return bytes;
        })
        .finally(() => computing.delete(key));
      computing.set(key, work);
      return work;
    },
  };
}
