import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { platformByQuery, type Mode, type PlatformQuery } from '@pipsense/contract';
import { apiAccountId } from './account-key';
import type { TradeRow } from './trade.repository';
import type { TradingTables } from './tables';

/**
 * A question about a user's stored trades in one mode, answered in SQL so that only the rows an answer shows
 * are read. Closed trades belong to the time they closed, open ones (any state but CLOSED) to the time they opened.
 */
export interface TradeQuery {
  mode: Mode;
  /** One platform's trades (the chat asks for the user's default platform's); every platform's without one. */
  platform?: PlatformQuery | undefined;
  state: 'open' | 'closed' | 'all';
  /** Exact instrument name as stored, e.g. EUR_USD. */
  instrument?: string | undefined;
  /** Inclusive lower bound of the trade's time, ISO-8601 UTC. */
  from?: string | null | undefined;
  /** Exclusive upper bound of the trade's time, ISO-8601 UTC. */
  to?: string | null | undefined;
  /** By P/L (realized plus unrealized): winners above zero, losers below. */
  outcome?: 'winners' | 'losers' | 'any' | undefined;
  stopLoss?: 'with' | 'without' | 'any' | undefined;
  takeProfit?: 'with' | 'without' | 'any' | undefined;
}

export type TradeSort = 'pl_desc' | 'pl_asc' | 'newest' | 'oldest';

/** What totals need of every matching trade; in stored order (open time, then id). */
export interface TradeFigures {
  /** The broker's id of the account (for OANDA its account id). */
  account_id: string;
  trade_id: string;
  instrument: string;
  realized_pl: string;
  unrealized_pl: string | null;
  financing: string;
  close_time: string | null;
}

/**
 * Stored times are OANDA's fixed-width nanosecond form (`…:SS.nnnnnnnnnZ`); bounds are written the same way so
 * that text comparison is time comparison (`.000Z` would sort after `.000000000Z`).
 */
export function storedTimeBound(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`not a time: ${iso}`);
  return `${new Date(ms).toISOString().slice(0, 23)}000000Z`;
}

// Decimals are TEXT. CAST(… AS NUMERIC) is exact on PostgreSQL and a number on SQLite (integer or double, which
// orders decimals of up to 15 significant digits exactly), so one expression serves both engines.
const num = (column: 'realized_pl' | 'unrealized_pl') => sql`CAST(${sql.ref(column)} AS NUMERIC)`;
const unrealized = sql`COALESCE(${num('unrealized_pl')}, 0)`;
const pl = sql`(${num('realized_pl')} + ${unrealized})`;
const tradeTime = sql`(CASE WHEN state = 'CLOSED' THEN COALESCE(close_time, open_time) ELSE open_time END)`;

export function createTradeQueryRepository(db: Kysely<TradingTables>) {
  function matching(userId: string, q: TradeQuery) {
    let query = db.selectFrom('trades').where('user_id', '=', userId).where('mode', '=', q.mode);
    if (q.platform) query = query.where('platform', '=', platformByQuery(q.platform).stored);
    if (q.state === 'open') query = query.where('state', '!=', 'CLOSED');
    if (q.state === 'closed') query = query.where('state', '=', 'CLOSED');
    if (q.instrument) query = query.where('instrument', '=', q.instrument);
    if (q.from || q.to) {
      const from = q.from ? storedTimeBound(q.from) : null;
      const to = q.to ? storedTimeBound(q.to) : null;
      query = query.where((eb) => {
        const within = (column: 'open_time' | 'close_time') => {
          const bounds: Expression<SqlBool>[] = [];
          if (from) bounds.push(eb(column, '>=', from));
          if (to) bounds.push(eb(column, '<', to));
          return eb.and(bounds);
        };
        // Comparing the columns themselves (not a CASE) lets an index serve one state: (user_id, open_time, …) the open
        // trades, (user_id, state, close_time, …) the closed ones (docs/decisions/018-…).
        if (q.state === 'open') return within('open_time');
        if (q.state === 'closed') return within('close_time');
        return eb.or([
          eb.and([eb('state', '=', 'CLOSED'), within('close_time')]),
          eb.and([eb('state', '!=', 'CLOSED'), within('open_time')]),
        ]);
      });
    }
    // Comparing the two parts instead of adding them keeps the sign exact on SQLite's doubles too.
    if (q.outcome === 'winners') query = query.where(sql<SqlBool>`${num('realized_pl')} > -${unrealized}`);
    if (q.outcome === 'losers') query = query.where(sql<SqlBool>`${num('realized_pl')} < -${unrealized}`);
    if (q.stopLoss === 'with') query = query.where('stop_loss_price', 'is not', null);
    if (q.stopLoss === 'without') query = query.where('stop_loss_price', 'is', null);
    if (q.takeProfit === 'with') query = query.where('take_profit_price', 'is not', null);
    if (q.takeProfit === 'without') query = query.where('take_profit_price', 'is', null);
    return query;
  }

  return {
    /** The first `limit` matching trades in the order asked for; ties go newest first, then by trade id. */
    top(userId: string, q: TradeQuery, sort: TradeSort, limit: number): Promise<TradeRow[]> {
      let query = matching(userId, q).selectAll();
      if (sort === 'pl_desc' || sort === 'pl_asc') query = query.orderBy(pl, sort === 'pl_desc' ? 'desc' : 'asc');
      const direction = sort === 'oldest' ? 'asc' : 'desc';
      return query
        .orderBy(tradeTime, direction)
        .orderBy('trade_num', direction)
        .orderBy('account_key', 'asc')
        .limit(Math.max(1, Math.trunc(limit)))
        .execute();
    },

    /** The few columns totals are made of, for every matching trade, oldest first. */
    async figures(userId: string, q: TradeQuery): Promise<TradeFigures[]> {
      const rows = await matching(userId, q)
        .select(['account_key', 'trade_id', 'instrument', 'realized_pl', 'unrealized_pl', 'financing', 'close_time'])
        .orderBy('open_time', 'asc')
        .orderBy('trade_num', 'asc')
        .orderBy('account_key', 'asc')
        .execute();
      return rows.map(({ account_key, ...row }) => ({ account_id: apiAccountId(account_key), ...row }));
    },

    /** The newest write of a stored trade of the mode (optionally of one state); null when there is none. */
    async latestWrite(userId: string, mode: Mode, state?: 'closed', platform?: PlatformQuery): Promise<string | null> {
      let query = db.selectFrom('trades').where('user_id', '=', userId).where('mode', '=', mode);
      if (platform) query = query.where('platform', '=', platformByQuery(platform).stored);
      if (state === 'closed') query = query.where('state', '=', 'CLOSED');
      const row = await query.select((eb) => eb.fn.max('updated_at').as('at')).executeTakeFirst();
      return row?.at ?? null;
    },
  };
}
export type TradeQueryRepository = ReturnType<typeof createTradeQueryRepository>;
