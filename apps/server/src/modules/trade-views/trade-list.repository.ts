import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import { PLATFORM_TABLE, platformByQuery, type TradeFilters, type TradeTag } from '@pipsense/contract';
import { sqliteHandleOf } from '../../db/client';
import type { TradesTable } from '../../db/schema';
import type { TradeViewsTables } from './tables';
import { readsNotes, readsReviews, type ReviewFact, type TradeSelection } from './selection';
import { realizedPlValue, selectTrades } from './selection-sql';

/** A stored trade as the views read it. */
export type TradeRow = Selectable<TradesTable>;

/**
 * The trade list (`get_trade_history`, the CSV export, a journal day): a selection in one of the list's orders,
 * answered in SQL. Pages come by offset (the list shows page numbers); the export and a day read every matching
 * trade in batches by keyset (`batch`), so that no answer holds more than one batch of rows.
 */
export interface ListOrder {
  sort?: TradeFilters['sort'] | undefined;
  order?: 'asc' | 'desc' | undefined;
}

/**
 * The list's request (the contract's trade filters; no platform: every platform's) as a selection: the open time
 * with both ends included, the outcome by closed trades' realized P/L.
 */
export function listSelection(f: Partial<TradeFilters>): TradeSelection {
  return {
    platform: f.platform,
    mode: f.mode,
    account: f.accountId,
    instrument: f.instrument,
    side: f.side,
    state: f.state === 'OPEN' ? 'open' : f.state === 'CLOSED' ? 'closed' : undefined,
    time: f.from || f.to ? { basis: 'open', ends: 'both', from: f.from, to: f.to } : undefined,
    outcome: f.outcome ? { of: 'realized', is: f.outcome } : undefined,
    tags: f.tag,
    noteText: f.q,
    hasNote: f.hasNote,
    playbookId: f.playbookId,
    playbookReview: f.playbookReview,
  };
}

/** A stored trade with the trader's note and rating on it (note null: none written). */
export type TradeListRow = TradeRow & { note: string | null; rating: number | null };

/**
 * A stored trade and its note as a list row of one shape: every column named in one literal, so that every row
 * shares one hidden class whatever the driver built. `pg` builds each row on a hidden class of its own; adding the
 * note to it made a new hidden class (or a dictionary) a row and left every later read of its fields megamorphic
 * (bench/README.md, "Results: `list`, with the playbook filters", the export on PostgreSQL).
 */
function listRow(r: TradeRow, note: string | null, rating: number | null): TradeListRow {
  return {
    user_id: r.user_id,
    account_key: r.account_key,
    trade_id: r.trade_id,
    trade_num: r.trade_num,
    mode: r.mode,
    instrument: r.instrument,
    price: r.price,
    initial_units: r.initial_units,
    current_units: r.current_units,
    realized_pl: r.realized_pl,
    unrealized_pl: r.unrealized_pl,
    financing: r.financing,
    state: r.state,
    open_time: r.open_time,
    close_time: r.close_time,
    average_close_price: r.average_close_price,
    stop_loss_price: r.stop_loss_price,
    take_profit_price: r.take_profit_price,
    trailing_stop_distance: r.trailing_stop_distance,
    initial_stop_loss_price: r.initial_stop_loss_price,
    mae_price: r.mae_price,
    mfe_price: r.mfe_price,
    excursion_status: r.excursion_status,
    excursion_at: r.excursion_at,
    excursion_attempts: r.excursion_attempts,
    platform: r.platform,
    symbol: r.symbol,
    lots: r.lots,
    commission: r.commission,
    swap: r.swap,
    server_open_time: r.server_open_time,
    created_at: r.created_at,
    updated_at: r.updated_at,
    note,
    rating,
  };
}

/** Where the previous batch ended: its last row. */
export type TradeCursor = TradeRow;

type Direction = 'asc' | 'desc';

/** One key of the order: how ORDER BY names it, and how a keyset compares it with a row's value. */
interface SortKey {
  order: (dir: Direction) => RawBuilder<unknown>;
  compare: (op: '<' | '>' | '=' | '<=' | '>=', row: TradeRow, dir: Direction) => RawBuilder<SqlBool>;
}

const column = (name: keyof TradeRow): SortKey => ({
  order: (dir) => sql`${sql.ref(`trades.${name}`)} ${sql.raw(dir)}`,
  compare: (op, row) => sql<SqlBool>`${sql.ref(`trades.${name}`)} ${sql.raw(op)} ${row[name]}`,
});

// Realized P/L by value, not as text (realizedPlValue): the expression the index of migration 008 holds.
const realizedPl: SortKey = {
  order: (dir) => sql`${realizedPlValue} ${sql.raw(dir)}`,
  compare: (op, row) => sql<SqlBool>`${realizedPlValue} ${sql.raw(op)} CAST(${row.realized_pl} AS NUMERIC)`,
};
/** Open trades (no close time) come last either way; for the keyset they stand for the last possible value. */
const closeTime: SortKey = {
  order: (dir) => sql`${sql.ref('trades.close_time')} ${sql.raw(dir)} nulls last`,
  compare: (op, row, dir) => {
    const last = dir === 'desc' ? '' : '~';
    return sql<SqlBool>`COALESCE(${sql.ref('trades.close_time')}, ${last}) ${sql.raw(op)} ${row.close_time ?? last}`;
  },
};
/** Ties go by open time, then trade id, then account: every order is total, so pages and batches are stable. */
const TAIL = [column('open_time'), column('trade_num'), column('account_key')];
const SORT_KEYS: Record<NonNullable<TradeFilters['sort']>, SortKey[]> = {
  openTime: TAIL,
  closeTime: [closeTime, ...TAIL],
  realizedPL: [realizedPl, ...TAIL],
  instrument: [column('instrument'), ...TAIL],
};

export function createTradeListRepository(db: Kysely<TradeViewsTables>) {
  const sqlite = sqliteHandleOf(db) !== undefined;
  const matching = (userId: string, s: TradeSelection) => selectTrades(db, userId, s);
  /** A selection that reaches its trades through the journal's tables (tags, notes) or the playbooks' reviews. */
  const throughJournal = (s: TradeSelection) => (s.tags?.length ?? 0) > 0 || readsNotes(s) || readsReviews(s);

  /**
   * The selection as the query needs it: a platform filter is left out when the user has no trade on another platform
   * (one index probe), since it cannot change the answer then. Most users trade on one platform, and their pages and
   * counts keep the plans of bench/list.bench.ts (a count answered from an index alone would otherwise read every
   * row for its platform).
   */
  async function narrowed(userId: string, f: TradeSelection): Promise<TradeSelection> {
    if (!f.platform) return f;
    const stored = platformByQuery(f.platform).stored;
    // `in` the other platforms (not `!=`): an index seek per platform, not a scan of the user's trades.
    const others = PLATFORM_TABLE.map((p) => p.stored).filter((p) => p !== stored);
    const other =
      others.length === 0
        ? undefined
        : await db
            .selectFrom('trades')
            .select('trade_id')
            .where('user_id', '=', userId)
            .where('platform', 'in', others)
            .limit(1)
            .executeTakeFirst();
    return other ? f : { ...f, platform: undefined };
  }

  /** The selected trades in the list's order, nothing selected yet. */
  function inOrder(userId: string, f: TradeSelection, order: ListOrder) {
    const dir: Direction = order.order ?? 'desc';
    const keys = SORT_KEYS[order.sort ?? 'openTime'];
    let query = matching(userId, f);
    for (const key of keys) query = query.orderBy(key.order(dir));
    return { query, keys, dir };
  }

  function ordered(userId: string, f: TradeSelection, order: ListOrder) {
    const { query, keys, dir } = inOrder(userId, f, order);
    return { query: query.selectAll('trades'), keys, dir };
  }

  /** Rows of the tables keyed by trade key, for these trades only (both engines look each key up in the index). */
  const forTrades = (rows: readonly TradeKey[]) => ({
    accounts: [...new Set(rows.map((r) => r.account_key))],
    ids: [...new Set(rows.map((r) => r.trade_id))],
  });

  /** These trades' rows, in the order of the keys (a trade deleted since its key was read is left out). */
  async function rowsOf(userId: string, keys: readonly TradeKey[]): Promise<TradeRow[]> {
    if (keys.length === 0) return [];
    const { accounts, ids } = forTrades(keys);
    const found = await db
      .selectFrom('trades')
      .selectAll()
      .where('user_id', '=', userId)
      .where('account_key', 'in', accounts)
      .where('trade_id', 'in', ids)
      .execute();
    const byKey = new Map(found.map((r) => [tradeKey(r), r]));
    return keys.flatMap((k) => byKey.get(tradeKey(k)) ?? []);
  }

  /** The page's rows with the trader's note and rating (read for these rows only, after the page is cut). */
  async function withNotes(userId: string, rows: TradeRow[]): Promise<TradeListRow[]> {
    if (rows.length === 0) return [];
    const { accounts, ids } = forTrades(rows);
    const notes = await db
      .selectFrom('trade_notes')
      .select(['account_key', 'trade_id', 'note', 'rating'])
      .where('user_id', '=', userId)
      .where('account_key', 'in', accounts)
      .where('trade_id', 'in', ids)
      .execute();
    const byKey = new Map(notes.map((n) => [tradeKey(n), n]));
    // Each row copied with its note into a list row of one shape (listRow): neither a spread copy (a fresh chain of
    // hidden classes a row) nor the note added onto the driver's row (a dictionary or a hidden class a row on
    // PostgreSQL), bench/README.md "Results: `list`, with the playbook filters".
    return rows.map((row) => {
      const n = byKey.get(tradeKey(row));
      return listRow(row, n?.note ?? null, n?.rating ?? null);
    });
  }

  return {
    async count(userId: string, selection: TradeSelection): Promise<number> {
      const f = await narrowed(userId, selection);
      const row = await matching(userId, f)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /**
     * One page in the filter's order (newest open first by default) and the number of matching trades. A filter by
     * tag, note or playbook reaches its trades through those tables; reading them twice (a count, then the page)
     * costs twice, so on SQLite the page counts them as it goes (a window count; 36 ms instead of 95 in
     * bench/list.bench.ts). The window holds every matching trade until the last is counted, so it holds their keys
     * only, and the page's rows are read by key after it (less time than whole rows: bench/README.md,
     * "Results: `list`, with the playbook filters"). PostgreSQL plans the window worse (224 ms instead of 75) and
     * other filters count through the trades indexes alone: a count query beside the page.
     */
    async page(
      userId: string,
      selection: TradeSelection,
      order: ListOrder,
      offset: number,
      limit: number,
    ): Promise<{ rows: TradeListRow[]; total: number }> {
      const f = await narrowed(userId, selection);
      if (sqlite && throughJournal(f)) {
        const counted = await inOrder(userId, f, order)
          .query.select(['trades.account_key', 'trades.trade_id'])
          .select(sql<number | string>`count(*) over ()`.as('matching_total'))
          .limit(limit)
          .offset(offset)
          .execute();
        if (counted.length > 0 || offset === 0) {
          const total = Number(counted[0]?.matching_total ?? 0);
          return { rows: await withNotes(userId, await rowsOf(userId, counted)), total };
        }
        // Past the last page the window has no row to say the total on.
      }
      const { query } = ordered(userId, f, order);
      const [total, rows] = await Promise.all([this.count(userId, f), query.limit(limit).offset(offset).execute()]);
      return { rows: await withNotes(userId, rows), total };
    },

    /**
     * `page` for the list's usual request (bench/api.bench.ts): the platform probe of `narrowed` rides on the count
     * (one query instead of two); when the user has trades on another platform, the count is taken again with the
     * platform filter (a rare case: most users trade on one). Otherwise as `page`.
     */
    async pageOf(
      userId: string,
      selection: TradeSelection,
      order: ListOrder,
      offset: number,
      limit: number,
    ): Promise<{ rows: TradeListRow[]; total: number }> {
      if (!selection.platform || (sqlite && throughJournal(selection)))
        return this.page(userId, selection, order, offset, limit);
      const stored = platformByQuery(selection.platform).stored;
      const others = PLATFORM_TABLE.map((p) => p.stored).filter((p) => p !== stored);
      const all = { ...selection, platform: undefined };
      const row = await matching(userId, all)
        .select((eb) => [
          eb.fn.countAll<number | string>().as('n'),
          others.length === 0
            ? sql<boolean | number>`0`.as('other')
            : eb
                .exists(
                  db
                    .selectFrom('trades as o')
                    .select('o.trade_id')
                    .where('o.user_id', '=', userId)
                    .where('o.platform', 'in', others),
                )
                .$castTo<boolean | number>()
                .as('other'),
        ])
        .executeTakeFirst();
      if (row?.other === true || Number(row?.other) === 1) return this.page(userId, selection, order, offset, limit);
      const rows = await ordered(userId, all, order).query.limit(limit).offset(offset).execute();
      return { rows: await withNotes(userId, rows), total: Number(row?.n ?? 0) };
    },

    /** The next `limit` matching trades after `cursor` (from the first without one), in the list's order. */
    async batch(
      userId: string,
      selection: TradeSelection,
      order: ListOrder,
      cursor: TradeCursor | null,
      limit: number,
    ): Promise<TradeListRow[]> {
      const { query, keys, dir } = ordered(userId, await narrowed(userId, selection), order);
      let q = query;
      if (cursor) {
        const past = dir === 'desc' ? '<' : '>';
        const branches = keys.map((key, i) => {
          const parts = keys.slice(0, i).map((k) => k.compare('=', cursor, dir));
          parts.push(key.compare(past, cursor, dir));
          return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
        });
        // The first key's bound again, alone: an index in the list's order starts at the cursor instead of reading
        // every row before it (the branches above are no range an index can seek to).
        q = q.where(keys[0]!.compare(dir === 'desc' ? '<=' : '>=', cursor, dir));
        q = q.where(sql<SqlBool>`(${sql.join(branches, sql` or `)})`);
      }
      const read = await q.limit(limit).execute();
      const rows = await withNotes(userId, read);
      // The driver's rows are copied into list rows (listRow): emptied here, they are garbage at once. Left in the
      // driver's result, PostgreSQL's stayed reachable to the young generation's collections after the batch was
      // done and were moved to the old one, batch after batch (bench/README.md, "Results: `list`, with the playbook
      // filters", the export on PostgreSQL).
      read.length = 0;
      return rows;
    },

    /** The tags on each of these trades, by `<account_key> <trade_id>`, in kind then name order. */
    async tagsOf(userId: string, rows: readonly TradeRow[]): Promise<Map<string, TradeTag[]>> {
      const out = new Map<string, TradeTag[]>();
      if (rows.length === 0) return out;
      const { accounts, ids } = forTrades(rows);
      const tagged = await db
        .selectFrom('trade_tags as tt')
        .innerJoin('journal_tags as t', 't.id', 'tt.tag_id')
        .select(['tt.account_key', 'tt.trade_id', 't.id', 't.name', 't.kind'])
        .where('tt.user_id', '=', userId)
        .where('tt.account_key', 'in', accounts)
        .where('tt.trade_id', 'in', ids)
        .orderBy('t.kind')
        .orderBy('t.name_key')
        .execute();
      const wanted = new Set(rows.map((r) => tradeKey(r)));
      for (const t of tagged) {
        const key = tradeKey(t);
        if (!wanted.has(key)) continue;
        let list = out.get(key);
        if (!list) out.set(key, (list = []));
        list.push({ id: t.id, name: t.name, kind: t.kind as TradeTag['kind'] });
      }
      return out;
    },

    /** The playbook and review of each of these trades that is on a playbook, by `<account_key> <trade_id>`. */
    async reviewsOf(userId: string, rows: readonly TradeRow[]): Promise<Map<string, ReviewFact>> {
      const out = new Map<string, ReviewFact>();
      if (rows.length === 0) return out;
      const { accounts, ids } = forTrades(rows);
      const found = await db
        .selectFrom('trade_reviews')
        .select(['account_key', 'trade_id', 'playbook_id', 'reviewed', 'followed_all'])
        .where('user_id', '=', userId)
        .where('account_key', 'in', accounts)
        .where('trade_id', 'in', ids)
        .execute();
      for (const r of found) out.set(tradeKey(r), reviewFactOf(r));
      return out;
    },

    /** Every playbook assignment of the user, by `<account_key> <trade_id>` (the Overview's in-memory filter). */
    reviewsByTrade: (userId: string) => reviewsByTrade(db, userId),

    /** How many images each of these trades carries, by `<account_key> <trade_id>` (absent: none). */
    async attachmentCountsOf(userId: string, rows: readonly TradeRow[]): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      if (rows.length === 0) return out;
      const { accounts, ids } = forTrades(rows);
      const found = await db
        .selectFrom('attachments')
        .select((eb) => ['account_key', 'trade_id', eb.fn.countAll<number | string>().as('n')])
        .where('user_id', '=', userId)
        .where('target', '=', 'trade')
        .where('account_key', 'in', accounts)
        .where('trade_id', 'in', ids)
        .groupBy(['account_key', 'trade_id'])
        .execute();
      for (const r of found)
        if (r.account_key !== null && r.trade_id !== null)
          out.set(tradeKey({ account_key: r.account_key, trade_id: r.trade_id }), Number(r.n));
      return out;
    },

    /** Close time and realized P/L of the selected trades (the P/L calendar selects closed ones). */
    closedPL(userId: string, selection: TradeSelection) {
      return matching(userId, selection)
        .select(['trades.account_key', 'trades.trade_id', 'trades.close_time', 'trades.realized_pl'])
        .execute() as Promise<
        Array<{ account_key: string; trade_id: string; close_time: string; realized_pl: string }>
      >;
    },

    /**
     * How many of the user's stored trades carry each tag (of these tags only, when given); tags on trades no longer
     * stored do not count, and a tag on none is absent.
     */
    async tagTradeCounts(userId: string, tagIds?: readonly string[]): Promise<Map<string, number>> {
      let query = db
        .selectFrom('trade_tags')
        .innerJoin('trades', (join) =>
          join
            .onRef('trades.user_id', '=', 'trade_tags.user_id')
            .onRef('trades.account_key', '=', 'trade_tags.account_key')
            .onRef('trades.trade_id', '=', 'trade_tags.trade_id'),
        )
        .select((eb) => ['trade_tags.tag_id', eb.fn.countAll<number | string>().as('n')])
        .where('trade_tags.user_id', '=', userId)
        .groupBy('trade_tags.tag_id');
      if (tagIds) {
        if (tagIds.length === 0) return new Map();
        query = query.where('trade_tags.tag_id', 'in', [...tagIds]);
      }
      return new Map((await query.execute()).map((r) => [r.tag_id, Number(r.n)]));
    },

    /** The currency of each of the user's accounts, by account key ('' when not known yet). */
    async accountCurrencies(userId: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('broker_accounts')
        .select(['account_key', 'currency'])
        .where('user_id', '=', userId)
        .execute();
      return new Map(rows.map((r) => [r.account_key, r.currency ?? '']));
    },

    /** How many stored trades each account currency has (an account without a known currency counts as ''). */
    /**
     * The users with at least one stored trade: their accounts, each tested for a trade by one index probe (far
     * cheaper than reading the trades of every user).
     */
    async usersWithTrades(): Promise<string[]> {
      const rows = await db
        .selectFrom('broker_accounts')
        .select('broker_accounts.user_id')
        .distinct()
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('trades')
              .select('trades.trade_id')
              .whereRef('trades.user_id', '=', 'broker_accounts.user_id')
              .whereRef('trades.account_key', '=', 'broker_accounts.account_key'),
          ),
        )
        .execute();
      return rows.map((r) => r.user_id);
    },

    async tradeCountsByCurrency(userId: string): Promise<{ currency: string; trades: number }[]> {
      const rows = await db
        .selectFrom('trades')
        .leftJoin('broker_accounts', (join) =>
          join
            .onRef('broker_accounts.user_id', '=', 'trades.user_id')
            .onRef('broker_accounts.account_key', '=', 'trades.account_key'),
        )
        .select((eb) => ['broker_accounts.currency', eb.fn.countAll<number | string>().as('n')])
        .where('trades.user_id', '=', userId)
        .groupBy('broker_accounts.currency')
        .execute();
      return rows.map((r) => ({ currency: r.currency ?? '', trades: Number(r.n) }));
    },

    /** Which of these tag ids are not tags of the user. */
    async unknownTags(userId: string, tagIds: readonly string[]): Promise<string[]> {
      if (tagIds.length === 0) return [];
      const found = await db
        .selectFrom('journal_tags')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', 'in', [...tagIds])
        .execute();
      const known = new Set(found.map((r) => r.id));
      return tagIds.filter((id) => !known.has(id));
    },
  };
}
export type TradeListRepository = ReturnType<typeof createTradeListRepository>;

/** A trade's keys, as the journal's and the playbooks' tables name it. */
type TradeKey = { account_key: string; trade_id: string };

export const tradeKey = (r: TradeKey) => `${r.account_key} ${r.trade_id}`;

/** Every playbook assignment of the user with its review, by `<account_key> <trade_id>`. */
export async function reviewsByTrade(db: Kysely<TradeViewsTables>, userId: string): Promise<Map<string, ReviewFact>> {
  const found = await db
    .selectFrom('trade_reviews')
    .select(['account_key', 'trade_id', 'playbook_id', 'reviewed', 'followed_all'])
    .where('user_id', '=', userId)
    .execute();
  return new Map(found.map((r) => [tradeKey(r), reviewFactOf(r)]));
}

const reviewFactOf = (r: { playbook_id: string; reviewed: number; followed_all: number | null }): ReviewFact => ({
  playbookId: r.playbook_id,
  reviewed: Number(r.reviewed) === 1,
  followedAll: r.followed_all === null ? null : Number(r.followed_all) === 1,
});
