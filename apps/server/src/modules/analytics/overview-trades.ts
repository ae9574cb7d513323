import type { Kysely, Selectable } from 'kysely';
import { platformByQuery, type Mode, type PlatformQuery } from '@pipsense/contract';
import { sqliteHandleOf } from '../../db/client';
import type { TradesTable } from '../../db/schema';
import { apiAccountId } from '../trading';
import { tradeRef } from '../journal';
import { engineTradeFromItem, type EngineTrade } from './engine';
import type { OverviewTradeReads } from './tables';

/** Which trades an overview covers: one platform, and the journal's slice (contract dashboardMetricsQuery). */
export interface OverviewSlice {
  platform: PlatformQuery;
  mode?: Mode | undefined;
  /** The account as the API names it: its login or its account key. */
  accountId?: string | undefined;
  /** Open time from/to (ISO, inclusive). */
  from?: string | undefined;
  to?: string | undefined;
  /** Already in the stored form (EUR_USD). */
  instrument?: string | undefined;
  /** Trades carrying any of these tag ids. */
  tag?: readonly string[] | undefined;
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

/** The columns the engine reads, in the order of a raw row. */
const COLUMNS = [
  'account_key',
  'trade_id',
  'instrument',
  'price',
  'initial_units',
  'current_units',
  'realized_pl',
  'unrealized_pl',
  'financing',
  'state',
  'open_time',
  'close_time',
  'average_close_price',
  'stop_loss_price',
  'take_profit_price',
  'trailing_stop_distance',
  'initial_stop_loss_price',
  'mode',
] as const;
type Row = Pick<Selectable<TradesTable>, (typeof COLUMNS)[number]>;
/** A row as SQLite gives it raw: the columns' values in COLUMNS order. */
type RawRow = [
  account_key: Row['account_key'],
  trade_id: Row['trade_id'],
  instrument: Row['instrument'],
  price: Row['price'],
  initial_units: Row['initial_units'],
  current_units: Row['current_units'],
  realized_pl: Row['realized_pl'],
  unrealized_pl: Row['unrealized_pl'],
  financing: Row['financing'],
  state: Row['state'],
  open_time: Row['open_time'],
  close_time: Row['close_time'],
  average_close_price: Row['average_close_price'],
  stop_loss_price: Row['stop_loss_price'],
  take_profit_price: Row['take_profit_price'],
  trailing_stop_distance: Row['trailing_stop_distance'],
  initial_stop_loss_price: Row['initial_stop_loss_price'],
  mode: Row['mode'],
];

const DAY_MS = 86_400_000;

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
    add(row: RawRow): void {
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

/** The filters of a slice, to test one trade of a book at a time. */
export interface SliceTest {
  mode?: Mode | undefined;
  /** The account keys the slice's account names (none: no account filter). */
  accountKeys?: ReadonlySet<string> | undefined;
  instrument?: string | undefined;
  /** Open time bounds, epoch ms, inclusive. */
  from?: number | undefined;
  to?: number | undefined;
  /** Tag ids per trade (tradeRef), when the slice asks for tags; and the ids asked for. */
  tagsByTrade?: ReadonlyMap<string, readonly string[]> | undefined;
  tags?: readonly string[] | undefined;
}

/** The trades of a book in a slice, in the book's order (the same objects: nothing is copied). */
export function sliceBook(book: OverviewBook, test: SliceTest): EngineTrade[] {
  const { mode, accountKeys, instrument, from, to, tagsByTrade } = test;
  const tags = test.tags && test.tags.length > 0 ? new Set(test.tags) : undefined;
  const out: EngineTrade[] = [];
  const { trades } = book;
  for (let i = 0; i < trades.length; i++) {
    const trade = trades[i]!;
    if (mode !== undefined && book.modes[i] !== mode) continue;
    if (accountKeys !== undefined && !accountKeys.has(book.accountKeys[i]!)) continue;
    if (instrument !== undefined && trade.instrument !== instrument) continue;
    if (from !== undefined && trade.openTime < from) continue;
    if (to !== undefined && trade.openTime > to) continue;
    if (tags !== undefined) {
      const on = tagsByTrade?.get(tradeRef(trade.accountId, trade.tradeId));
      if (!on || !on.some((id) => tags.has(id))) continue;
    }
    out.push(trade);
  }
  return out;
}

/**
 * The Overview's read of the trades table: only the columns the engine needs, mapped to the engine's trades as they
 * are read (engine/from-records.ts: exact minor units, R from domain/risk.ts). On SQLite the rows come as arrays
 * straight from the driver (no object per row); on PostgreSQL through Kysely. The trading module owns the rows; this
 * is the Overview's read model of them, like journal-facts.service.ts's.
 */
export function createOverviewTrades(db: Kysely<OverviewTradeReads>) {
  const sqlite = sqliteHandleOf(db);

  function selectRows(userId: string, platform: PlatformQuery) {
    return db
      .selectFrom('trades as t')
      .select(COLUMNS.map((c) => `t.${c}` as const))
      .where('t.user_id', '=', userId)
      .where('t.platform', '=', platformByQuery(platform).stored)
      .orderBy('t.open_time', 'asc')
      .orderBy('t.trade_num', 'asc')
      .orderBy('t.account_key', 'asc');
  }

  /** Every row of the query into a book: raw arrays on SQLite, Kysely's objects on PostgreSQL. */
  async function read(query: ReturnType<typeof selectRows>): Promise<OverviewBook> {
    const builder = bookBuilder();
    if (sqlite) {
      const compiled = query.compile();
      // Inside Kysely's hold on its one connection: never in the middle of another caller's transaction.
      await db.connection().execute(async () => {
        const statement = sqlite.prepare(compiled.sql).raw(true);
        for (const row of statement.iterate(...(compiled.parameters as unknown[])) as IterableIterator<RawRow>)
          builder.add(row);
      });
    } else {
      for (const r of await query.execute())
        builder.add([
          r.account_key,
          r.trade_id,
          r.instrument,
          r.price,
          r.initial_units,
          r.current_units,
          r.realized_pl,
          r.unrealized_pl,
          r.financing,
          r.state,
          r.open_time,
          r.close_time,
          r.average_close_price,
          r.stop_loss_price,
          r.take_profit_price,
          r.trailing_stop_distance,
          r.initial_stop_loss_price,
          r.mode,
        ]);
    }
    return builder.book;
  }

  /** The account keys an account filter names: its login or its key (as the trade list reads it). */
  async function accountKeysNamed(userId: string, named: string): Promise<Set<string>> {
    const rows = await db
      .selectFrom('broker_accounts')
      .select('account_key')
      .where('user_id', '=', userId)
      .where((w) => w.or([w('login', '=', named), w('account_key', '=', named)]))
      .execute();
    return new Set(rows.map((r) => r.account_key));
  }

  return {
    /** How many trades the platform's book holds (to decide whether to keep it in memory). */
    async count(userId: string, platform: PlatformQuery): Promise<number> {
      const row = await db
        .selectFrom('trades')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('platform', '=', platformByQuery(platform).stored)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Every trade of one platform (both modes), oldest first. */
    book: (userId: string, platform: PlatformQuery): Promise<OverviewBook> => read(selectRows(userId, platform)),

    accountKeysNamed,

    /**
     * One slice's trades read with its filters in SQL (the date range widened by a day there, since stored times
     * and ISO bounds do not compare as text to the digit, and made exact in sliceBook), for a book too large to keep
     * in memory.
     */
    async slice(userId: string, slice: OverviewSlice, test: SliceTest): Promise<EngineTrade[]> {
      let query = selectRows(userId, slice.platform);
      if (slice.mode) query = query.where('t.mode', '=', slice.mode);
      if (test.accountKeys) query = query.where('t.account_key', 'in', [...test.accountKeys, '']);
      if (slice.instrument) query = query.where('t.instrument', '=', slice.instrument);
      if (test.from !== undefined) query = query.where('t.open_time', '>=', new Date(test.from - DAY_MS).toISOString());
      if (test.to !== undefined) query = query.where('t.open_time', '<=', new Date(test.to + DAY_MS).toISOString());
      const tags = slice.tag ?? [];
      if (tags.length > 0)
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('trade_tags as tt')
              .select('tt.tag_id')
              .whereRef('tt.user_id', '=', 't.user_id')
              .whereRef('tt.account_key', '=', 't.account_key')
              .whereRef('tt.trade_id', '=', 't.trade_id')
              .where('tt.tag_id', 'in', [...tags]),
          ),
        );
      return sliceBook(await read(query), test);
    },
  };
}
export type OverviewTrades = ReturnType<typeof createOverviewTrades>;
