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
export function dataVersion(trades: readonly TradeItem[], accounts: readonly AccountItem[]): DataVersion {
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
    .update(JSON.stringify([trades.length, newestTrade, accounts.length, newestSync, newestAccountChange]))
    .digest('base64url');
  return { digest, dataAsOf };
}
