import type { BulkTagBody, TradeItem } from '@pipsense/contract';

type Keyed = Pick<TradeItem, 'accountId' | 'tradeId'>;

/** A trade's key across accounts (trade ids repeat between accounts). */
export const tradeKey = (trade: Keyed) => `${trade.accountId}:${trade.tradeId}`;

/** The selected trades, kept across pages: key → the ids bulk_tag takes. */
export type Selection = ReadonlyMap<string, Keyed>;

/** Checks or unchecks trades, leaving the others as they were. */
export function toggleSelection(selection: Selection, trades: readonly Keyed[], checked: boolean): Selection {
  const next = new Map(selection);
  for (const trade of trades)
    if (checked) next.set(tradeKey(trade), { accountId: trade.accountId, tradeId: trade.tradeId });
    else next.delete(tradeKey(trade));
  return next;
}

/** The body of POST journal/bulk_tag for the selection. */
export const bulkTagBody = (selection: Selection, tagIds: readonly string[]): BulkTagBody => ({
  trades: [...selection.values()],
  tagIds: [...tagIds],
});
