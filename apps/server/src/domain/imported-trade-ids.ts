import { storedDateTime } from './datetime';

/*
 * The one rule for an imported trade's id (docs/decisions/012-metatrader-import.md, Trade ids): a reused ticket
 * carries its open time. The trading module names the trades it stores by it (metatrader-store.ts), the import's
 * preview its sample. It lives here, pure, so that the import's parse thread (import/report-parse.worker.ts) names
 * the sample without loading the trading module.
 */

/** The ticket a stored trade id names (`<ticket>` or `<ticket>@<open time>`, trading's account-key.ts). */
const ticketOf = (tradeId: string): string => {
  const at = tradeId.indexOf('@');
  return at < 0 ? tradeId : tradeId.slice(0, at);
};

/** What a stored trade of the account is matched by: its UTC open time and, for an imported one, the server's. */
export interface StoredOpenTime {
  openTime: string;
  /** null for a row that has none (OANDA's). */
  serverOpenTime: string | null;
}

/**
 * The trade id of each imported trade (trading's account-key.ts: the trade key). The ticket, unless the ticket is not enough
 * to tell trades apart: it occurs more than once among these trades, or a stored trade of the account has it with
 * another open time (an MT5 netting position reused after a reversal). Then `<ticket>@<open time>` (the stored,
 * nanosecond form of the UTC open time). A trade already stored with the same ticket and the same open time as the
 * server printed it keeps its id, so a re-import of the same file, of one that overlaps it, or of the same file read
 * with a corrected server clock rule (its UTC times moved) names every trade as before; an id's `@<open time>` is
 * then the UTC time it was first stored with, a name and no longer the trade's time.
 * `stored`: the account's stored trades by id; none for an import's preview, which names the trades as the file
 * alone does.
 */
export function importedTradeIds(
  trades: ReadonlyArray<{ ticket: string; openTime: string; serverOpenTime: string }>,
  stored: ReadonlyMap<string, StoredOpenTime> = new Map(),
): string[] {
  const idOf = tradeIdNamer(trades, stored);
  return trades.map((t) => idOf(t.ticket, storedDateTime(t.openTime, `trade ${t.ticket} openTime`), t.serverOpenTime));
}

/** The id rule of importedTradeIds for one trade, given the whole import and the stored trades. */
export function tradeIdNamer(
  trades: ReadonlyArray<{ ticket: string }>,
  stored: ReadonlyMap<string, StoredOpenTime>,
): (ticket: string, openTime: string, serverOpenTime: string) => string {
  // Ids with an open time suffix are few (reversals); plain ids are looked up in `stored` itself.
  const suffixed = new Map<string, Array<{ id: string } & StoredOpenTime>>();
  for (const [id, times] of stored) {
    if (!id.includes('@')) continue;
    const ticket = ticketOf(id);
    let list = suffixed.get(ticket);
    if (!list) suffixed.set(ticket, (list = []));
    list.push({ id, ...times });
  }
  const inBatch = new Map<string, number>();
  for (const t of trades) inBatch.set(t.ticket, (inBatch.get(t.ticket) ?? 0) + 1);
  // A row without a server time (none should be left after migration 022) is matched by its UTC open time.
  const sameTrade = (k: StoredOpenTime, openTime: string, serverOpenTime: string) =>
    k.serverOpenTime === null ? k.openTime === openTime : k.serverOpenTime === serverOpenTime;
  return (ticket, openTime, serverOpenTime) => {
    const plain = stored.get(ticket);
    const known = [...(plain === undefined ? [] : [{ id: ticket, ...plain }]), ...(suffixed.get(ticket) ?? [])];
    const same = known.find((k) => sameTrade(k, openTime, serverOpenTime));
    if (same) return same.id;
    const reused = (inBatch.get(ticket) ?? 0) > 1 || known.length > 0;
    return reused ? `${ticket}@${openTime}` : ticket;
  };
}
