import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import {
  PLATFORM_TABLE,
  platformByQuery,
  type PlatformQuery,
  type TradeFilters,
  type TradeTag,
} from '@pipsense/contract';
import { sqliteHandleOf } from '../../db/client';
import { storedTimeBound } from './trade-query.repository';
import type { TradeRow } from './trade.repository';
import { accountKeysNamed } from './broker-account.repository';
import type { TradeListReads } from './tables';

/**
 * The trade list of issue 9 (`get_trade_history`, the CSV export, a journal day): the contract's filters and sorts,
 * answered in SQL. Pages come by offset (the list shows page numbers); the export and a day read every matching
 * trade in batches by keyset (`batch`), so that no answer holds more than one batch of rows.
 */
export interface TradeListFilter extends Omit<TradeFilters, 'accountId' | 'platform'> {
  /**
   * One platform's trades (the API always passes one: 'oanda' by default); without one every platform's (a
   * journal day covers them all, calendar.service.ts).
   */
  platform?: PlatformQuery | undefined;
  /** The account as the API names it: the broker's login (OANDA's account id) or the account key (MetaTrader). */
  accountId?: string | undefined;
  /** Closed trades whose close time is in [closedFrom, closedTo), ISO-8601 (a journal day). */
  closedFrom?: string | undefined;
  closedTo?: string | undefined;
}

/** A stored trade with the trader's note and rating on it (note null: none written). */
export type TradeListRow = TradeRow & { note: string | null; rating: number | null };

/** Where the previous batch ended: its last row. */
export type TradeCursor = TradeRow;

type Direction = 'asc' | 'desc';

/** One key of the order: how ORDER BY names it, and how a keyset compares it with a row's value. */
interface SortKey {
  order: (dir: Direction) => RawBuilder<unknown>;
  compare: (op: '<' | '>' | '=', row: TradeRow, dir: Direction) => RawBuilder<SqlBool>;
}

const column = (name: keyof TradeRow): SortKey => ({
  order: (dir) => sql`${sql.ref(`trades.${name}`)} ${sql.raw(dir)}`,
  compare: (op, row) => sql<SqlBool>`${sql.ref(`trades.${name}`)} ${sql.raw(op)} ${row[name]}`,
});

/** Realized P/L by value, not as text: the expression the index of migration 008 holds. */
export const realizedPlValue = sql`CAST(${sql.ref('trades.realized_pl')} AS NUMERIC)`;
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

/** `%`, `_` and the escape itself match literally in a LIKE pattern. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createTradeListRepository(db: Kysely<TradeListReads>) {
  const sqlite = sqliteHandleOf(db) !== undefined;
  function matching(userId: string, f: TradeListFilter, withNotes: boolean) {
    let query = db.selectFrom('trades').where('trades.user_id', '=', userId);
    if (withNotes)
      query = query.leftJoin('trade_notes as n', (join) =>
        join
          .onRef('n.user_id', '=', 'trades.user_id')
          .onRef('n.account_key', '=', 'trades.account_key')
          .onRef('n.trade_id', '=', 'trades.trade_id'),
      );
    if (f.platform) query = query.where('trades.platform', '=', platformByQuery(f.platform).stored);
    if (f.mode) query = query.where('trades.mode', '=', f.mode);
    if (f.accountId) query = query.where('trades.account_key', 'in', accountKeysNamed(db, userId, f.accountId));
    if (f.from) query = query.where('trades.open_time', '>=', storedTimeBound(f.from));
    // `to` is inclusive to the millisecond: stored times carry nanoseconds.
    if (f.to)
      query = query.where('trades.open_time', '<', storedTimeBound(new Date(Date.parse(f.to) + 1).toISOString()));
    if (f.closedFrom) query = query.where('trades.close_time', '>=', storedTimeBound(f.closedFrom));
    if (f.closedTo) query = query.where('trades.close_time', '<', storedTimeBound(f.closedTo));
    if (f.closedFrom || f.closedTo) query = query.where('trades.state', '=', 'CLOSED');
    if (f.instrument) query = query.where('trades.instrument', '=', f.instrument);
    if (f.side === 'short') query = query.where('trades.initial_units', 'like', '-%');
    if (f.side === 'long') query = query.where('trades.initial_units', 'not like', '-%');
    if (f.state === 'CLOSED') query = query.where('trades.state', '=', 'CLOSED');
    if (f.state === 'OPEN') query = query.where('trades.state', '!=', 'CLOSED');
    if (f.outcome) {
      const op = f.outcome === 'win' ? '>' : f.outcome === 'loss' ? '<' : '=';
      query = query.where('trades.state', '=', 'CLOSED').where(sql<SqlBool>`${realizedPlValue} ${sql.raw(op)} 0`);
    }
    if (f.tag && f.tag.length > 0) {
      // The tagged trades first (trade_tags_user_tag_idx), then each looked up by its key: a tag narrows far more
      // than a user's whole history does.
      const tagged = db
        .selectFrom('trade_tags')
        .select(['account_key', 'trade_id'])
        .where('user_id', '=', userId)
        .where('tag_id', 'in', f.tag);
      query = query.where((eb) => eb.refTuple('trades.account_key', 'trades.trade_id'), 'in', tagged as never);
    }
    if (f.q) query = query.where(sql<SqlBool>`lower(${sql.ref('n.note')}) like ${likePattern(f.q)} escape '\\'`);
    if (f.hasNote === true) query = query.where(sql<SqlBool>`${sql.ref('n.note')} <> ''`);
    if (f.hasNote === false) query = query.where(sql<SqlBool>`COALESCE(${sql.ref('n.note')}, '') = ''`);
    return query;
  }

  const needsNotes = (f: TradeListFilter) => Boolean(f.q) || f.hasNote !== undefined;

  /**
   * The filter as the query needs it: a platform filter is left out when the user has no trade on another platform
   * (one index probe), since it cannot change the answer then. Most users trade on one platform, and their pages and
   * counts keep the plans of bench/list.bench.ts (a count answered from an index alone would otherwise read every
   * row for its platform).
   */
  async function narrowed(userId: string, f: TradeListFilter): Promise<TradeListFilter> {
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

  function ordered(userId: string, f: TradeListFilter) {
    const dir: Direction = f.order ?? 'desc';
    const keys = SORT_KEYS[f.sort ?? 'openTime'];
    let query = matching(userId, f, needsNotes(f)).selectAll('trades');
    for (const key of keys) query = query.orderBy(key.order(dir));
    return { query, keys, dir };
  }

  /** Rows of the tables keyed by trade key, for these trades only (both engines look each key up in the index). */
  const forTrades = (rows: readonly TradeRow[]) => ({
    accounts: [...new Set(rows.map((r) => r.account_key))],
    ids: [...new Set(rows.map((r) => r.trade_id))],
  });

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
    return rows.map((row) => {
      const n = byKey.get(tradeKey(row));
      return { ...row, note: n?.note ?? null, rating: n?.rating ?? null };
    });
  }

  return {
    async count(userId: string, filter: TradeListFilter): Promise<number> {
      const f = await narrowed(userId, filter);
      const row = await matching(userId, f, needsNotes(f))
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** One page in the filter's order (newest open first by default). */
    /**
     * One page in the filter's order (newest open first by default) and the number of matching trades. A filter by
     * tag or note reaches its trades through those tables; reading them twice (a count, then the page) costs twice,
     * so on SQLite the page counts them as it goes (a window count; 36 ms instead of 95 in bench/list.bench.ts).
     * PostgreSQL plans that worse (224 ms instead of 75) and other filters count through the trades indexes alone:
     * a count query beside the page.
     */
    async page(
      userId: string,
      filter: TradeListFilter,
      offset: number,
      limit: number,
    ): Promise<{ rows: TradeListRow[]; total: number }> {
      const f = await narrowed(userId, filter);
      const { query } = ordered(userId, f);
      if (sqlite && ((f.tag?.length ?? 0) > 0 || needsNotes(f))) {
        const counted = await query
          .select(sql<number | string>`count(*) over ()`.as('matching_total'))
          .limit(limit)
          .offset(offset)
          .execute();
        if (counted.length > 0 || offset === 0) {
          const total = Number(counted[0]?.matching_total ?? 0);
          const rows = counted.map(({ matching_total: _, ...row }) => row);
          return { rows: await withNotes(userId, rows), total };
        }
        // Past the last page the window has no row to say the total on.
      }
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
      filter: TradeListFilter,
      offset: number,
      limit: number,
    ): Promise<{ rows: TradeListRow[]; total: number }> {
      if (!filter.platform || (sqlite && ((filter.tag?.length ?? 0) > 0 || needsNotes(filter))))
        return this.page(userId, filter, offset, limit);
      const stored = platformByQuery(filter.platform).stored;
      const others = PLATFORM_TABLE.map((p) => p.stored).filter((p) => p !== stored);
      const all = { ...filter, platform: undefined };
      const row = await matching(userId, all, needsNotes(all))
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
      if (row?.other === true || Number(row?.other) === 1) return this.page(userId, filter, offset, limit);
      const rows = await ordered(userId, all).query.limit(limit).offset(offset).execute();
      return { rows: await withNotes(userId, rows), total: Number(row?.n ?? 0) };
    },

    /** The next `limit` matching trades after `cursor` (from the first without one), in the filter's order. */
    async batch(
      userId: string,
      filter: TradeListFilter,
      cursor: TradeCursor | null,
      limit: number,
    ): Promise<TradeListRow[]> {
      const { query, keys, dir } = ordered(userId, await narrowed(userId, filter));
      let q = query;
      if (cursor) {
        const past = dir === 'desc' ? '<' : '>';
        const branches = keys.map((key, i) => {
          const parts = keys.slice(0, i).map((k) => k.compare('=', cursor, dir));
          parts.push(key.compare(past, cursor, dir));
          return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
        });
        q = q.where(sql<SqlBool>`(${sql.join(branches, sql` or `)})`);
      }
      return withNotes(userId, await q.limit(limit).execute());
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

    /** Close time and realized P/L of the user's closed trades with a close time in [from, to) (ISO-8601). */
    closedBetween(userId: string, from: string, to: string, platform?: PlatformQuery) {
      let query = db
        .selectFrom('trades')
        .select(['close_time', 'realized_pl'])
        .where('user_id', '=', userId)
        .where('state', '=', 'CLOSED')
        .where('close_time', '>=', storedTimeBound(from))
        .where('close_time', '<', storedTimeBound(to));
      if (platform) query = query.where('platform', '=', platformByQuery(platform).stored);
      return query.execute() as Promise<Array<{ close_time: string; realized_pl: string }>>;
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

export const tradeKey = (r: { account_key: string; trade_id: string }) => `${r.account_key} ${r.trade_id}`;
