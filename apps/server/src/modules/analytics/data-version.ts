import { createHash } from 'node:crypto';
import type { AccountItem, TradeItem } from '@pipsense/contract';

export interface DataVersion {
  /** Digest of what a sync changes; equal digests mean the same synced data. */
  digest: string;
  /** The last time a sync wrote or confirmed these records (RFC 3339), or null without records. */
  dataAsOf: string | null;
}

function later(a: string | null, b: string): string {
  return a === null || Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * Every sync rewrites the synced accounts' `syncedAt` (a trade sync refreshes the account summary first), and
 * every trade a sync adds or changes gets a new `updatedAt`; a sync that removes trades changes the count. So
 * the counts and the newest of those times move with each sync and with nothing else, which is what the
 * insights are keyed by: written once per sync, not once per page view.
 */
/**
 * `journal`: a digest of what the journal adds to the trades (tags, which trade carries which, initial stops), so
 * that insights citing tags are written again when the tagging changes.
 */
export function dataVersion(
  trades: readonly TradeItem[],
  accounts: readonly AccountItem[],
  journal: string | null = null,
): DataVersion {
  let newestTrade: string | null = null;
  for (const trade of trades) newestTrade = later(newestTrade, trade.updatedAt);
  let newestSync: string | null = null;
  let newestAccountChange: string | null = null;
  for (const account of accounts) {
    newestSync = later(newestSync, account.syncedAt);
    newestAccountChange = later(newestAccountChange, account.updatedAt);
  }
  let dataAsOf = newestSync;
  if (newestTrade !== null) dataAsOf = later(dataAsOf, newestTrade);
  const digest = createHash('sha256')
    .update(
      JSON.stringify([
        trades.length,
        newestTrade,
        accounts.length,
        newestSync,
        newestAccountChange,
        ...(journal ? [journal] : []),
      ]),
    )
    .digest('base64url');
  return { digest, dataAsOf };
}

/** 32-bit FNV-1a of a string. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * An order-free digest of string entries (a sum of their hashes, and the count): the journal's rows come in no
 * fixed order, and sorting 100,000 of them for a cache key would cost more than the digest.
 */
export function entriesDigest(entries: Iterable<string>): string {
  let sum = 0;
  let count = 0;
  for (const entry of entries) {
    sum = (sum + fnv(entry)) % 0x1_0000_0000_0000;
    count++;
  }
  return `${count}:${sum}`;
}
