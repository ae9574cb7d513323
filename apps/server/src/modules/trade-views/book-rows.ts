import type { Kysely, Selectable } from 'kysely';
import { platformByQuery, type PlatformQuery } from '@pipsense/contract';
import { sqliteHandleOf } from '../../db/client';
import type { TradesTable } from '../../db/schema';
import type { TradeViewsTables } from './tables';
import type { TradeSelection } from './selection';
import { accountKeysOf, selectTrades } from './selection-sql';
import { closedAmounts, firstOpenTime } from './closed-amounts';
import { reviewsByTrade } from './trade-list.repository';

/** The columns the Overview's engine reads, in the order of a raw row. */
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
export type BookRow = [
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

/** The columns the coach's behaviour patterns read (modules/coach/patterns.ts), in the order of a raw row. */
const PATTERN_COLUMNS = [
  'account_key',
  'trade_id',
  'instrument',
  'price',
  'initial_units',
  'realized_pl',
  'state',
  'open_time',
  'close_time',
  'average_close_price',
  'initial_stop_loss_price',
  'mfe_price',
  'platform',
  'mode',
] as const;
type PatternColumns = Pick<Selectable<TradesTable>, (typeof PATTERN_COLUMNS)[number]>;

/** A row of the coach's read, raw: the columns' values in PATTERN_COLUMNS order. */
export type PatternRow = [
  account_key: PatternColumns['account_key'],
  trade_id: PatternColumns['trade_id'],
  instrument: PatternColumns['instrument'],
  price: PatternColumns['price'],
  initial_units: PatternColumns['initial_units'],
  realized_pl: PatternColumns['realized_pl'],
  state: PatternColumns['state'],
  open_time: PatternColumns['open_time'],
  close_time: PatternColumns['close_time'],
  average_close_price: PatternColumns['average_close_price'],
  initial_stop_loss_price: PatternColumns['initial_stop_loss_price'],
  mfe_price: PatternColumns['mfe_price'],
  platform: PatternColumns['platform'],
  mode: PatternColumns['mode'],
];

/** A trade as a rule set reads it (modules/rules ports.ts `RuleTradeFacts`). */
export interface TradeFacts {
  tradeId: string;
  instrument: string;
  price: string | null;
  initialUnits: string;
  realizedPL: string;
  financing: string;
  openTime: string;
  closeTime: string | null;
  averageClosePrice: string | null;
  initialStopLossPrice: string | null;
}

/**
 * The Overview's read of the trades: only the columns its engine needs, oldest first (open time, trade number,
 * account key: the order of every history), handed row by row to the caller, who maps each as it comes
 * (analytics/overview-trades.ts). On SQLite the rows come as arrays straight from the driver (no object per row);
 * on PostgreSQL through Kysely.
 */
export function createBookRows(db: Kysely<TradeViewsTables>) {
  const sqlite = sqliteHandleOf(db);

  /** The selected trades' `columns`, oldest first. */
  const columnsQuery = (
    columns: readonly (keyof Selectable<TradesTable>)[],
    userId: string,
    selection: TradeSelection,
  ) =>
    selectTrades(db, userId, selection)
      .select(columns.map((c) => `trades.${c}` as const))
      .orderBy('trades.open_time', 'asc')
      .orderBy('trades.trade_num', 'asc')
      .orderBy('trades.account_key', 'asc');

  /** The selected trades' `columns` to `add` as arrays in that order, oldest first. */
  async function readColumns<R>(
    columns: readonly (keyof Selectable<TradesTable>)[],
    userId: string,
    selection: TradeSelection,
    add: (row: R) => void,
  ): Promise<void> {
    const query = columnsQuery(columns, userId, selection);
    if (sqlite) {
      const compiled = query.compile();
      // Inside Kysely's hold on its one connection: never in the middle of another caller's transaction.
      await db.connection().execute(async () => {
        const statement = sqlite.prepare(compiled.sql).raw(true);
        for (const row of statement.iterate(...(compiled.parameters as unknown[])) as IterableIterator<R>) add(row);
      });
      return;
    }
    for (const r of (await query.execute()) as Array<Record<string, unknown>>) add(columns.map((c) => r[c]) as R);
  }

  const read = (userId: string, selection: TradeSelection, add: (row: BookRow) => void): Promise<void> =>
    readColumns<BookRow>(COLUMNS, userId, selection, add);

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

    /** Every selected trade to `add`, in the book's order. */
    read,

    /** Every selected trade as the coach's behaviour patterns read it, in the book's order. */
    patternRows: (userId: string, selection: TradeSelection, add: (row: PatternRow) => void): Promise<void> =>
      readColumns<PatternRow>(PATTERN_COLUMNS, userId, selection, add),

    /**
     * The pattern read of patternRows cut by open time into `parts` consecutive statements, each to run on a SQLite
     * connection of its own (a thread: docs/decisions/026-pattern-book-on-threads.md); their rows one after another
     * are patternRows' rows. Null on PostgreSQL, or when the selection holds fewer than `from` trades (one read on the
     * caller's connection is quicker than starting threads).
     */
    async patternRowParts(
      userId: string,
      selection: TradeSelection,
      parts: number,
      from: number,
    ): Promise<Array<{ filename: string; busyTimeoutMs: number; sql: string; parameters: readonly unknown[] }> | null> {
      if (!sqlite || sqlite.memory) return null;
      const counted = await selectTrades(db, userId, selection)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const count = Number(counted.n);
      if (count < from || parts < 2) return null;
      // The open time at each cut: every trade of one open time falls in one part, so the parts keep the order.
      const cuts: string[] = [];
      for (let k = 1; k < parts; k++) {
        const at = await selectTrades(db, userId, selection)
          .select('trades.open_time')
          .orderBy('trades.open_time', 'asc')
          .limit(1)
          .offset(Math.floor((k * count) / parts))
          .executeTakeFirst();
        if (at) cuts.push(at.open_time);
      }
      const busyTimeoutMs = Number(sqlite.pragma('busy_timeout', { simple: true })) || 5000;
      return [...cuts, null].map((before, k) => {
        let query = columnsQuery(PATTERN_COLUMNS, userId, selection);
        const after = cuts[k - 1];
        if (after !== undefined) query = query.where('trades.open_time', '>=', after);
        if (before !== null) query = query.where('trades.open_time', '<', before);
        const { sql, parameters } = query.compile();
        return { filename: sqlite.name, busyTimeoutMs, sql, parameters };
      });
    },

    /**
     * One account's trades with what a rule set reads of each (docs/rules.md, Inputs), oldest open first: through the
     * raw read above (an array per row on SQLite), not an item of every column per trade.
     */
    async tradeFacts(userId: string, accountKey: string): Promise<TradeFacts[]> {
      const out: TradeFacts[] = [];
      await read(userId, { account: accountKey }, (row) => {
        if (row[0] !== accountKey) return;
        out.push({
          tradeId: row[1],
          instrument: row[2],
          price: row[3],
          initialUnits: row[4],
          realizedPL: row[6],
          financing: row[8],
          openTime: row[10],
          closeTime: row[11],
          averageClosePrice: row[12],
          initialStopLossPrice: row[16],
        });
      });
      return out;
    },

    /** The keys of the accounts an account filter names (its login or its key), for the in-memory matcher. */
    accountKeysNamed: (userId: string, named: string): Promise<Set<string>> => accountKeysOf(db, userId, named),

    /**
     * Every playbook assignment of the user with its review, by `<account key> <trade id>`: what the Overview's
     * playbook filters match a book's trades with.
     */
    reviewsByTrade: (userId: string) => reviewsByTrade(db, userId),

    /** One account's closed trades as a balance books them (close time, P/L, financing), oldest close first. */
    closedAmounts: (userId: string, accountKey: string) => closedAmounts(db, userId, accountKey),

    /** The open time of one account's first trade (null: no trade). */
    firstOpenTime: (userId: string, accountKey: string) => firstOpenTime(db, userId, accountKey),
  };
}
export type BookRows = ReturnType<typeof createBookRows>;
