import type { Kysely } from 'kysely';
import type { TradeFilters, TradeListItem } from '@pipsense/contract';
import { badRequest } from '../../lib/errors';
import type { TradeViewsTables } from './tables';
import type { TradeSelection } from './selection';
import { createBookRows } from './book-rows';
import { createTradeQueryRepository, type TradeSort } from './trade-query.repository';
import { exportFileName, tradesCsv } from './trade-export';
import { toTradeListItem } from './trade-list-item';
import { createTradeListCache, tradeListQueryKey } from './trade-list-cache';
import {
  createTradeListRepository,
  listSelection,
  tradeKey,
  type ListOrder,
  type TradeCursor,
  type TradeListRow,
} from './trade-list.repository';
import type { PageRequest, Paged } from '../../lib/paging';
import { NO_RULE_BREAKS, type RuleBreakIndex, type RuleBreakSource } from './rule-breaks';
import { NO_PATTERN_KEYS, type PatternKeys, type PatternSource } from './pattern-keys';

interface TradeViewsDeps {
  db: Kysely<TradeViewsTables>;
  /**
   * The user's list version (db/data-versions.ts `listVersionReader`): it moves with every write of anything the list
   * shows, and keys the list's cached pages.
   */
  listVersionOf: (userId: string) => Promise<string>;
  /** The trades that broke a rule of the user's rule sets (rule-breaks.ts; app.ts wires the rules module's). */
  ruleBreaks?: RuleBreakSource | undefined;
  /** The trades a behaviour pattern flags (pattern-keys.ts; app.ts wires the coach's). */
  patterns?: PatternSource | undefined;
  now: () => Date;
}

/** The list's request: the contract's trade filters (without a platform: every platform's). */
export type TradeListRequest = Partial<TradeFilters>;

const pagesFor = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/**
 * Rows a batch of the export (or a journal day) reads at a time. Small enough that a batch's rows, items and text
 * die young: with 1,000 they lived across collections of the young generation, were promoted, and the export of
 * 100,000 trades grew resident memory by 117–123 MB; with 250 by 38–41 (bench/README.md, "Results: `list`, with the
 * playbook filters").
 */
export const TRADE_BATCH = 250;

/**
 * The trades as the screens and the export show them: with the trader's journal on each and its risk in R, selected
 * by one `TradeSelection`. Reads only; trading and the journal write the rows.
 */
export function createTradeViews({ db, listVersionOf, ruleBreaks, patterns, now }: TradeViewsDeps) {
  const tradeList = createTradeListRepository(db);
  const listCache = createTradeListCache();
  const tradeQuery = createTradeQueryRepository(db);

  /** A tag filter naming a tag the user does not have is a mistake (a deleted tag, another user's id): 400. */
  async function checkTags(userId: string, selection: TradeSelection): Promise<void> {
    const unknown = await tradeList.unknownTags(userId, selection.tags ?? []);
    if (unknown.length > 0)
      throw badRequest(
        `tag: no tag ${unknown.map((id) => JSON.stringify(id)).join(', ')} in your journal. Pick tags from your tag list.`,
        'UNKNOWN_TAG',
      );
  }

  const breaksOf = (userId: string): Promise<RuleBreakIndex> =>
    ruleBreaks ? ruleBreaks(userId) : Promise.resolve(NO_RULE_BREAKS);

  /** The selection of a request's `ruleBreak` filter: the broken trades' keys asked of the rules once. */
  async function withRuleBreak(
    userId: string,
    selection: TradeSelection,
    ruleBreak: boolean | undefined,
    index?: RuleBreakIndex,
  ): Promise<TradeSelection> {
    if (ruleBreak === undefined) return selection;
    const { byTrade } = index ?? (await breaksOf(userId));
    return { ...selection, ruleBreak: { broke: ruleBreak, keys: new Set(byTrade.keys()) } };
  }

  /** The selection of a request's `pattern` filter: the flagged trades' keys asked of the coach once. */
  async function withPattern(
    userId: string,
    selection: TradeSelection,
    pattern: TradeListRequest['pattern'],
    known?: PatternKeys,
  ): Promise<TradeSelection> {
    if (pattern === undefined) return selection;
    const { keys } = known ?? (patterns ? await patterns(userId, pattern) : NO_PATTERN_KEYS);
    return { ...selection, pattern: { keys } };
  }

  async function withJournal(userId: string, rows: TradeListRow[], index?: RuleBreakIndex): Promise<TradeListItem[]> {
    const [tags, { byTrade }, reviews, attachments] = await Promise.all([
      tradeList.tagsOf(userId, rows),
      index ? Promise.resolve(index) : breaksOf(userId),
      tradeList.reviewsOf(userId, rows),
      tradeList.attachmentCountsOf(userId, rows),
    ]);
    return rows.map((row) => {
      const key = tradeKey(row);
      return toTradeListItem(
        row,
        tags.get(key) ?? [],
        byTrade.get(key) ?? [],
        reviews.get(key),
        attachments.get(key) ?? 0,
      );
    });
  }

  return {
    /** The Overview's rows of one platform's trades or of one selection (book-rows.ts). */
    bookRows: createBookRows(db),

    /** One page of stored trades with their journal and risk, filtered and sorted (newest open first by default). */
    async tradePage(
      userId: string,
      { page, limit }: PageRequest,
      filter: TradeListRequest = {},
      index?: RuleBreakIndex,
      flagged?: PatternKeys,
    ): Promise<Paged<TradeListItem>> {
      const breaks = index ?? (await breaksOf(userId));
      const selection = await withPattern(
        userId,
        await withRuleBreak(userId, listSelection(filter), filter.ruleBreak, breaks),
        filter.pattern,
        flagged,
      );
      await checkTags(userId, selection);
      const { rows, total } = await tradeList.pageOf(userId, selection, filter, (page - 1) * limit, limit);
      return { data: await withJournal(userId, rows, breaks), pages: pagesFor(total, limit), total };
    },

    /**
     * `tradePage` as the JSON the API sends, UTF-8 encoded (`serialise` turns a page into its text: the route's
     * response schema).
     * One read of the user's list version per call; the page itself is computed and serialised once per version
     * and request on this instance (trade-list-cache.ts), so a repeated request costs that read alone.
     *
     * The rule breaks on each row and the `ruleBreak` filter do not move the list version: a rule set's edit writes
     * no trade. So the cache's version is the list version and the breaks' own version together (rule-breaks.ts):
     * a sync moves the first (and the second with it), a rule set created, edited or deleted moves the second, and
     * either makes every cached page of the user a miss. The filter itself is part of the request's key.
     */
    async tradePageJson(
      userId: string,
      request: PageRequest,
      filter: TradeListRequest,
      serialise: (page: Paged<TradeListItem>) => string,
    ): Promise<Buffer> {
      const [listVersion, breaks, flagged] = await Promise.all([
        listVersionOf(userId),
        breaksOf(userId),
        filter.pattern && patterns ? patterns(userId, filter.pattern) : undefined,
      ]);
      // A pattern's flags move with the user's thresholds and time zone too (pattern-keys.ts).
      const version = `${listVersion}|${breaks.version}${flagged ? `|${flagged.version}` : ''}`;
      return listCache.json(userId, version, tradeListQueryKey(request.page, request.limit, filter), async () =>
        serialise(await this.tradePage(userId, request, filter, breaks, flagged)),
      );
    },

    /**
     * Every selected trade as list rows, `TRADE_BATCH` at a time, in the list's order (keyset: each batch is one
     * query that starts after the previous batch's last row). Unknown tags are refused before the first batch.
     */
    async tradeBatches(
      userId: string,
      selection: TradeSelection,
      order: ListOrder = {},
      index?: RuleBreakIndex,
    ): Promise<AsyncGenerator<TradeListItem[]>> {
      await checkTags(userId, selection);
      const breaks = index ?? (await breaksOf(userId));
      return (async function* () {
        let cursor: TradeCursor | null = null;
        for (;;) {
          const rows = await tradeList.batch(userId, selection, order, cursor, TRADE_BATCH);
          if (rows.length > 0) yield await withJournal(userId, rows, breaks);
          if (rows.length < TRADE_BATCH) return;
          cursor = rows.at(-1)!;
        }
      })();
    },

    /**
     * The list's matching trades as CSV text chunks (trade-export.ts), read batch by batch as the consumer pulls
     * them, and the attachment's file name. Refuses unknown tags before anything is sent.
     */
    async exportTrades(userId: string, filter: TradeListRequest, timeZone: string) {
      const breaks = await breaksOf(userId);
      const selection = await withPattern(
        userId,
        await withRuleBreak(userId, listSelection(filter), filter.ruleBreak, breaks),
        filter.pattern,
      );
      const batches = await this.tradeBatches(userId, selection, filter, breaks);
      return { fileName: exportFileName(now(), timeZone), chunks: tradesCsv(batches, timeZone) };
    },

    /**
     * The first `limit` selected trades in the order asked for, selected, sorted and cut in the database (answers
     * list a handful of trades; reading the whole history for them costs more than the answer).
     */
    queryTrades(userId: string, selection: TradeSelection, sort: TradeSort, limit: number) {
      return tradeQuery.top(userId, selection, sort, limit);
    },

    /** The columns totals need of every selected trade, oldest first. */
    tradeFigures(userId: string, selection: TradeSelection) {
      return tradeQuery.figures(userId, selection);
    },

    /** Every selected trade, oldest first, with the first stop-loss the sync kept (for R). */
    trades(userId: string, selection: TradeSelection) {
      return tradeQuery.trades(userId, selection);
    },

    /** When a selected trade was last written; null when none is stored. */
    lastTradeWrite(userId: string, selection: TradeSelection) {
      return tradeQuery.latestWrite(userId, selection);
    },

    /**
     * Every playbook assignment of the user with its review, by `<account key> <trade id>` (the Overview's filter
     * by playbook, matched in memory).
     */
    reviewsByTrade(userId: string) {
      return tradeList.reviewsByTrade(userId);
    },

    /** How many stored trades carry each tag (of these tags only, when given); a tag on none is absent. */
    tagTradeCounts(userId: string, tagIds?: readonly string[]) {
      return tradeList.tagTradeCounts(userId, tagIds);
    },

    /**
     * The currency of each of the user's accounts by account key: money of several currencies is never added
     * (docs/decisions/024-currencies-never-mixed.md).
     */
    accountCurrencies(userId: string) {
      return tradeList.accountCurrencies(userId);
    },

    /** The users with at least one stored trade (the coach's weekly job considers them). */
    usersWithTrades() {
      return tradeList.usersWithTrades();
    },

    /** How many stored trades each account currency has: the default home currency is the one of the most. */
    tradeCountsByCurrency(userId: string) {
      return tradeList.tradeCountsByCurrency(userId);
    },

    /** The trades that broke a rule of the user's rule sets, by trade key (rule-breaks.ts), as the rules answer now. */
    ruleBreaks: breaksOf,

    /** Close time and realized P/L of the selected trades (the P/L calendar: closed ones by close time). */
    closedPL(userId: string, selection: TradeSelection) {
      return tradeList.closedPL(userId, selection);
    },
  };
}
export type TradeViews = ReturnType<typeof createTradeViews>;
