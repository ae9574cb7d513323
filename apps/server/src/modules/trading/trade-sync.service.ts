import type { Mode, TradeSyncResult } from '@pipsense/contract';
import type { OandaApi } from '../../integrations/oanda/oanda-client';
import { compareIds, idNumber, maxId, normaliseId } from '../../integrations/oanda/ids';
import type { WireTrade } from '../../integrations/oanda/wire-schemas';
import type { OandaCredentials } from '../settings';
import { oandaAccount } from './account-key';
import { refreshSummary, resolveAccountIds, type AccountSyncDeps } from './account-sync.service';
import { initialStopPrice, tradeRecord, type FirstStop } from './broker-data';
import { TRANSACTION_FILTER, storedTransactions, tradeReductionsOf } from './account-transactions';
import type { BrokerAccountRepository } from './broker-account.repository';
import { aboutAccount } from './oanda-failure';
import type { TradeRepository, WriteCounts } from './trade.repository';

export interface TradeSyncOptions {
  /** Re-read every trade instead of what changed since the checkpoint. */
  full?: boolean | undefined;
  /** Told after each page of trades is written, with that page's trade count (the background sync's progress). */
  onPage?: ((trades: number) => void) | undefined;
}

export interface TradeSyncDeps extends AccountSyncDeps {
  accounts: BrokerAccountRepository;
  trades: TradeRepository;
  /** After an account's trades are synced (its key): the trading service's follow-up, which never throws. */
  accountDone?: (accountKey: string) => Promise<void>;
}

/**
 * Pages of a full sync handed to the database and not yet written: enough that fetching runs ahead while another
 * account's pages are written (500 trades a page, so a few MB at most).
 */
const WRITES_IN_FLIGHT = 6;

/** Accounts of one user synced at the same time (they share the client's connections to OANDA). */
const ACCOUNTS_AT_ONCE = 2;

interface AccountOutcome extends WriteCounts {
  removed: number;
  full: boolean;
}

/*
 * How a trade sync stays exact (docs/decisions/003-broker-numbers.md):
 * - Every page is written in its own transaction as an upsert keyed by (user, account, trade id), so a sync cut
 *   off anywhere leaves only whole rows, and running it again converges on OANDA's set without duplicates.
 * - The checkpoint (lastTransactionID read before the sync, highest trade id stored) is written only after an
 *   account's sync completed. Without one, the next sync reads the full history again.
 * - The account's transactions (cash flows and the orders of stops and targets) are read once, from the last one
 *   stored, beside the trades: the transaction store (docs/decisions/022-transaction-store.md, catchUpTransactions).
 *   A trade's first stop comes from it.
 * - Incremental: trades newer than the checkpoint's id (state=ALL, newest first, stopping at that id), every
 *   currently open trade (unrealized P/L, financing and stop levels move without new transactions), and the
 *   trades stored as open that OANDA no longer lists as open (closed since). /changes is not used: it reports
 *   trades only by TradeSummary, without order levels, and misses financing charged to open trades.
 */
export async function syncTrades(
  deps: TradeSyncDeps,
  api: OandaApi,
  userId: string,
  credentials: OandaCredentials,
  options: TradeSyncOptions = {},
): Promise<TradeSyncResult> {
  const ids = await resolveAccountIds(api, credentials);
  const keys = ids.map((id) => oandaAccount(credentials.mode, id).account_key);
  const totals: AccountOutcome = { created: 0, updated: 0, removed: 0, full: false };
  // Accounts are synced ACCOUNTS_AT_ONCE at a time: one account's pages are fetched while another's are written.
  // Every account runs to its end (or its own failure) before the first failure is reported, so no page's
  // transaction is left running behind the error.
  const queue = [...ids];
  const failures: unknown[] = [];
  const worker = async () => {
    for (let accountId = queue.shift(); accountId !== undefined; accountId = queue.shift()) {
      if (failures.length > 0) return;
      const id = accountId;
      try {
        const outcome = await aboutAccount(id, true, () =>
          syncAccountTrades(deps, api, userId, credentials.mode, id, options.full === true, options.onPage),
        );
        totals.created += outcome.created;
        totals.updated += outcome.updated;
        totals.removed += outcome.removed;
        totals.full ||= outcome.full;
        await deps.accountDone?.(oandaAccount(credentials.mode, id).account_key);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ACCOUNTS_AT_ONCE, ids.length) }, worker));
  if (failures.length > 0) throw failures[0];
  return { accounts: ids.length, trades: await deps.trades.countForAccounts(userId, keys), ...totals };
}

async function syncAccountTrades(
  deps: TradeSyncDeps,
  api: OandaApi,
  userId: string,
  mode: Mode,
  accountId: string,
  forceFull: boolean,
  onPage?: (trades: number) => void,
): Promise<AccountOutcome> {
  const stamp = () => deps.now().toISOString();
  // The summary first: it creates the account row the trades belong to and gives the transaction id to resume from.
  const { row, lastTransactionID } = await refreshSummary(deps, api, userId, mode, accountId);
  const key = row.account_key;
  const counts: AccountOutcome = { created: 0, updated: 0, removed: 0, full: false };
  // The transaction store catches up beside the trades: the sync's one read of transactions. The first stop-loss
  // of each trade (docs/decisions/010-…) is then read from it, attached to the trade's row, and kept once stored.
  const caughtUp = catchUpTransactions(
    deps,
    api,
    userId,
    key,
    accountId,
    row.transactions_through_id,
    lastTransactionID,
  );
  caughtUp.catch(() => undefined); // surfaced when awaited
  // A full sync does not wait for the store: pages written before it caught up get their first stops afterwards
  // (`early`). Any other write waits for it (an incremental sync reads a few transactions at most).
  const early: WireTrade[] = [];
  // Whether a write must look its trades' first stops up: not when neither the store nor the account moved since
  // a sync that completed (it wrote these trades with the stops the same store held).
  let lookUp = true;
  const write = async (trades: readonly WireTrade[], fresh = false, waitForStops = true) => {
    let stops: Map<string, FirstStop> | undefined;
    if (waitForStops && trades.length > 0 && ((await caughtUp) || lookUp)) {
      stops = await deps.transactions.firstStops(
        userId,
        key,
        trades.map((t) => normaliseId(t.id)),
      );
    } else early.push(...trades);
    const result = await deps.trades.write(
      userId,
      key,
      trades.map((t) => tradeRecord(t, mode, stops?.get(normaliseId(t.id)))),
      stamp(),
      { fresh },
    );
    counts.created += result.created;
    counts.updated += result.updated;
    onPage?.(trades.length);
  };

  // Every way out waits for the catch-up: none of its writes is left running behind the sync's end or failure.
  try {
    return await syncStoredTrades();
  } finally {
    await caughtUp.then(
      () => undefined,
      () => undefined,
    );
  }

  async function syncStoredTrades(): Promise<AccountOutcome> {
    if (forceFull || row.trades_high_id === null) {
      counts.full = true;
      const fresh = !(await deps.trades.hasAny(userId, key));
      let top: string | undefined;
      const seen = new Set<string>();
      // Pages arrive newest first. The stages overlap: the client fetches the next page while this one is mapped and
      // the pages before it are written (on SQLite by the writer thread, so writes do not hold this event loop). At
      // most WRITES_IN_FLIGHT pages wait to be written, which keeps memory bounded; each is its own transaction, so
      // whichever of them commit before a failure are whole pages, and the checkpoint below is never reached.
      const writing: Array<Promise<void>> = [];
      try {
        for await (const page of api.tradePages(accountId, { state: 'ALL' })) {
          for (const trade of page.trades) {
            const id = normaliseId(trade.id);
            seen.add(id);
            top = top === undefined ? id : maxId(top, id);
          }
          if (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
          const next = write(page.trades, fresh, false);
          next.catch(() => undefined); // surfaced when awaited
          writing.push(next);
        }
        while (writing.length > 0) await writing.shift();
      } finally {
        // A failed fetch must not leave a page's transaction running behind the error.
        await Promise.allSettled(writing);
      }
      // The first stops of the trades written before the store caught up (only where none is stored yet).
      await caughtUp;
      const stops = early.length > 0 ? await deps.transactions.firstStops(userId, key) : new Map<string, FirstStop>();
      const learnt = new Map<string, string>();
      for (const trade of early) {
        const price = initialStopPrice(stops.get(normaliseId(trade.id)), trade);
        if (price !== null) learnt.set(normaliseId(trade.id), price);
      }
      early.length = 0;
      await deps.trades.fillInitialStops(userId, key, learnt, stamp());
      // The history was read to its end: whatever is stored at or below its newest id and was not seen, OANDA
      // does not have. Rows above it were written by a later sync and are left alone.
      // Every id seen is stored by now, so only a count above theirs means there is anything to remove: counting is
      // cheaper than listing thousands of ids on the event loop.
      const floor = top === undefined ? undefined : idNumber(top);
      if ((await deps.trades.countUpTo(userId, key, floor)) > seen.size) {
        const stored = await deps.trades.idsUpTo(userId, key, floor);
        counts.removed = await deps.trades.remove(
          userId,
          key,
          stored.filter((id) => !seen.has(id)),
        );
      }
      await deps.accounts.saveTradeCheckpoint(userId, key, {
        throughTransactionId: lastTransactionID,
        highId: top ?? '0',
        at: stamp(),
      });
      return counts;
    }

    const previousHigh = row.trades_high_id;
    let high = previousHigh;
    const handled = new Set<string>();
    const open = await api.openTrades(accountId);

    const changed = lastTransactionID === null || lastTransactionID !== row.trades_through_transaction_id;
    lookUp = changed;
    if (changed) {
      for await (const page of api.tradePages(accountId, { state: 'ALL', afterID: previousHigh })) {
        for (const trade of page.trades) {
          const id = normaliseId(trade.id);
          handled.add(id);
          high = maxId(high, id);
        }
        await write(page.trades);
      }
    }

    const openIds = new Set(open.trades.map((t) => normaliseId(t.id)));
    await write(open.trades.filter((t) => !handled.has(normaliseId(t.id))));
    for (const id of openIds) handled.add(id);

    const vanished = (await deps.trades.unclosedIds(userId, key)).filter(
      (id) => !handled.has(id) && compareIds(id, high) <= 0,
    );
    if (vanished.length > 0) {
      const { trades, missing } = await api.tradesByIds(accountId, vanished);
      await write(trades);
      counts.removed = await deps.trades.remove(userId, key, missing);
    }

    await caughtUp;
    await deps.accounts.saveTradeCheckpoint(userId, key, {
      throughTransactionId: lastTransactionID,
      highId: high,
      at: stamp(),
    });
    return counts;
  }
}

/**
 * Brings the account's transaction store up to `through` (the summary's lastTransactionID): the transactions of
 * TRANSACTION_FILTER after the last id stored (`after`; none yet: the whole history), one idrange answer at a
 * time, each stored with the new checkpoint in one transaction (account-transaction.repository.ts writeRange). The
 * checkpoint moves to each range's end even when the filtered answer is empty (an idrange with a `type` answers only
 * the matching ones), so no range is asked twice. With nothing new it asks OANDA for nothing. Resolves to whether it read anything.
 */
async function catchUpTransactions(
  deps: TradeSyncDeps,
  api: OandaApi,
  userId: string,
  key: string,
  accountId: string,
  after: string | null,
  through: string | null,
): Promise<boolean> {
  if (through === null || (after !== null && compareIds(after, through) >= 0)) return false;
  const ranges = api.transactionRanges(accountId, {
    afterId: after,
    throughId: through,
    types: TRANSACTION_FILTER,
  });
  for await (const range of ranges) {
    const records = await storedTransactions(range.transactions, (ids) =>
      deps.transactions.dependentOrders(userId, key, ids),
    );
    await deps.transactions.writeRange(
      userId,
      key,
      records,
      range.through,
      deps.now().toISOString(),
      tradeReductionsOf(range.transactions),
    );
  }
  return true;
}
