import type { Mode, PlatformQuery } from '@pipsense/contract';
import { platformByQuery } from '@pipsense/contract';
import { apiAccountId } from '../trading';
import { tradeRef } from '../journal';
import {
  readsReviews,
  timeRange,
  tradeMatcher,
  type BookRow,
  type BookRows,
  type ReviewFact,
  type TradeFieldReaders,
  type TradeSelection,
} from '../trade-views';
import { engineTradeFromItem, type EngineTrade } from './engine';

/** Which trades an overview covers: one platform's, and the journal's slice (contract dashboardMetricsQuery). */
export type OverviewSelection = TradeSelection & { platform: PlatformQuery };

/**
 * The overview's request as a selection: the open time with both ends included (ISO, to the millisecond), one
 * account by its login or key, one instrument (already in the stored form, EUR_USD), trades with any of the tags.
 */
export function overviewSelection(r: {
  platform: PlatformQuery;
  mode?: Mode | undefined;
  accountId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  instrument?: string | undefined;
  tag?: readonly string[] | undefined;
  playbookId?: string | undefined;
  playbookReview?: OverviewSelection['playbookReview'];
}): OverviewSelection {
  return {
    platform: r.platform,
    mode: r.mode,
    account: r.accountId,
    instrument: r.instrument,
    time: r.from || r.to ? { basis: 'open', ends: 'both', from: r.from, to: r.to } : undefined,
    tags: r.tag,
    playbookId: r.playbookId,
    playbookReview: r.playbookReview,
  };
}

/**
 * One platform's stored trades as the engine reads them, oldest first (open time, trade number, account key: the
 * order of every history), with what the filters need beside each: its account key and mode.
 */
export interface OverviewBook {
  trades: EngineTrade[];
  accountKeys: string[];
  modes: Mode[];
}

/**
 * Builds a book row by row. Account keys, their API ids, instruments and modes repeat on every row: each is kept
 * once (a string per distinct value rather than per trade), which also makes the engine's Map lookups by
 * instrument cheaper.
 */
function bookBuilder() {
  const book: OverviewBook = { trades: [], accountKeys: [], modes: [] };
  const accountIds = new Map<string, string>();
  const keys = new Map<string, string>();
  const instruments = new Map<string, string>();
  const once = (seen: Map<string, string>, value: string) => {
    const kept = seen.get(value);
    if (kept !== undefined) return kept;
    seen.set(value, value);
    return value;
  };
  return {
    book,
    add(row: BookRow): void {
      const account_key = row[0];
      let accountId = accountIds.get(account_key);
      if (accountId === undefined) {
        accountId = apiAccountId(account_key);
        accountIds.set(account_key, accountId);
      }
      book.trades.push(
        engineTradeFromItem(
          {
            accountId,
            tradeId: row[1],
            instrument: once(instruments, row[2]),
            price: row[3],
            initialUnits: row[4],
            currentUnits: row[5],
            realizedPL: row[6],
            unrealizedPL: row[7],
            financing: row[8],
            state: row[9],
            openTime: row[10],
            closeTime: row[11],
            averageClosePrice: row[12],
            stopLossPrice: row[13],
            takeProfitPrice: row[14],
            trailingStopDistance: row[15],
          },
          row[16],
        ),
      );
      book.accountKeys.push(once(keys, account_key));
      book.modes.push(row[17] === 'live' ? 'live' : 'demo');
    },
  };
}

/**
 * How the selection's matcher reads a trade of a book: the engine's fields, and the account key and mode from the
 * book's arrays by the trade's index (no object per trade; a filtered view tests the whole book).
 */
function bookFields(book: OverviewBook, platform: string): TradeFieldReaders<EngineTrade> {
  const { accountKeys, modes } = book;
  return {
    accountKey: (_, i) => accountKeys[i]!,
    platform: () => platform,
    mode: (_, i) => modes[i]!,
    instrument: (t) => t.instrument,
    short: (t) => t.units < 0,
    state: (t) => t.state,
    openTime: (t) => t.openTime,
    closeTime: (t) => t.closeTime,
    realizedPL: (t) => String(t.realizedPL),
    unrealizedPL: (t) => String(t.unrealizedPL),
    hasStopLoss: (t) => t.stopLossPrice !== null,
    hasTakeProfit: (t) => t.takeProfitPrice !== null,
  };
}

/** What the matcher needs beside a book: the accounts the selection names, the tag ids per trade (tradeRef). */
export interface SliceFacts {
  accountKeys?: ReadonlySet<string> | undefined;
  tagsByTrade?: ReadonlyMap<string, readonly string[]> | undefined;
  /** The playbook assignments by `<account key> <trade id>` (read only when the selection filters by playbook). */
  reviewsByTrade?: ReadonlyMap<string, ReviewFact> | undefined;
}

/** The trades of a book in a selection, in the book's order (the same objects: nothing is copied). */
export function sliceBook(book: OverviewBook, selection: OverviewSelection, facts: SliceFacts = {}): EngineTrade[] {
  // A book holds one platform's trades: the platform is not tested again per trade.
  const { platform, time, ...rest } = selection;
  let start = 0;
  let end = book.trades.length;
  const range = time?.basis === 'open' && openTimeOrdered(book) ? timeRange(time) : undefined;
  if (range) {
    // The book is in open-time order: the bounds are two binary searches, and only the trades between are tested.
    start = firstAt(book.trades, (ms) => ms >= range.lo);
    end = firstAt(book.trades, (ms) => (range.toIncluded ? ms > range.hi : ms >= range.hi));
  }
  const matches = tradeMatcher(range ? rest : { ...rest, time }, bookFields(book, platformByQuery(platform).stored), {
    accountKeys: facts.accountKeys,
    tagIds: (t) => facts.tagsByTrade?.get(tradeRef(t.accountId, t.tradeId)),
    // The trade views' key (`<account key> <trade id>`), which the rule breaks are keyed by.
    tradeKey: (t, i) => `${book.accountKeys[i]!} ${t.tradeId}`,
    review: (t, i) => facts.reviewsByTrade?.get(`${book.accountKeys[i]!} ${t.tradeId}`),
  });
  const trades = book.trades;
  const out: EngineTrade[] = [];
  for (let i = start; i < end; i++) if (matches(trades[i]!, i)) out.push(trades[i]!);
  return out;
}

/** The first index whose open time passes `past` (which turns true once and stays true), or the length. */
function firstAt(trades: readonly EngineTrade[], past: (openTime: number) => boolean): number {
  let lo = 0;
  let hi = trades.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (past(trades[mid]!.openTime)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Whether the book's open times never go back (as read, oldest first); checked once per book. */
const ordered = new WeakMap<OverviewBook, boolean>();
function openTimeOrdered(book: OverviewBook): boolean {
  let known = ordered.get(book);
  if (known === undefined) {
    known = true;
    for (let i = 1; i < book.trades.length && known; i++)
      if (!(book.trades[i]!.openTime >= book.trades[i - 1]!.openTime)) known = false;
    ordered.set(book, known);
  }
  return known;
}

/**
 * The Overview's read model of the trades: the book of one platform, or one selection's trades, read by the trade
 * views (trade-views/book-rows.ts) and mapped to the engine's trades as they come (engine/from-records.ts: exact
 * minor units, R from domain/risk.ts).
 */
export function createOverviewTrades(rows: BookRows) {
  async function read(userId: string, selection: TradeSelection): Promise<OverviewBook> {
    const builder = bookBuilder();
    await rows.read(userId, selection, (row) => builder.add(row));
    return builder.book;
  }

  return {
    /** How many trades the platform's book holds (to decide whether to keep it in memory). */
    count: (userId: string, platform: PlatformQuery): Promise<number> => rows.count(userId, platform),

    /** Every trade of one platform (both modes), oldest first. */
    book: (userId: string, platform: PlatformQuery): Promise<OverviewBook> => read(userId, { platform }),

    accountKeysNamed: rows.accountKeysNamed,

    /** The playbook assignments a selection filtering by playbook matches a book with (none read otherwise). */
    reviewsFor: async (userId: string, selection: TradeSelection): Promise<Map<string, ReviewFact> | undefined> =>
      readsReviews(selection) ? rows.reviewsByTrade(userId) : undefined,

    /** One selection's trades read with it in SQL, for a book too large to keep in memory. */
    async slice(userId: string, selection: OverviewSelection): Promise<EngineTrade[]> {
      return (await read(userId, selection)).trades;
    },
  };
}
export type OverviewTrades = ReturnType<typeof createOverviewTrades>;
