import { sql, type Kysely } from 'kysely';
import type { TradeItem } from '@pipsense/contract';
import { apiAccountId, toTradeItem } from '../trading';
import type { TradeViewsTables } from './tables';
import type { TradeSelection } from './selection';
import { realizedPlValue, selectTrades } from './selection-sql';

export type TradeSort = 'pl_desc' | 'pl_asc' | 'newest' | 'oldest';

/** What totals need of every matching trade; in stored order (open time, then id). */
interface TradeFigures {
  /** The broker's id of the account (for OANDA its account id). */
  account_id: string;
  trade_id: string;
  instrument: string;
  realized_pl: string;
  unrealized_pl: string | null;
  financing: string;
  close_time: string | null;
}

/** A stored trade as the API shows it, with the first stop-loss the sync kept (the input of every R figure). */
type StoredTradeItem = TradeItem & { initialStopLossPrice: string | null };

// P/L by value: realized plus unrealized, exact on PostgreSQL, a number on SQLite (selection-sql.ts).
const pl = sql`(${realizedPlValue} + COALESCE(CAST(${sql.ref('trades.unrealized_pl')} AS NUMERIC), 0))`;
/** A closed trade's time is its close, an open one's its open (the assistant's periods). */
const tradeTime = sql`(CASE WHEN ${sql.ref('trades.state')} = 'CLOSED' THEN COALESCE(${sql.ref('trades.close_time')}, ${sql.ref('trades.open_time')}) ELSE ${sql.ref('trades.open_time')} END)`;

/**
 * Questions about a user's stored trades answered in SQL, so that only the rows an answer shows are read (the
 * assistant's tools).
 */
export function createTradeQueryRepository(db: Kysely<TradeViewsTables>) {
  return {
    /** The first `limit` selected trades in the order asked for; ties go newest first, then by trade id. */
    async top(userId: string, s: TradeSelection, sort: TradeSort, limit: number): Promise<TradeItem[]> {
      let query = selectTrades(db, userId, s).selectAll('trades');
      if (sort === 'pl_desc' || sort === 'pl_asc') query = query.orderBy(pl, sort === 'pl_desc' ? 'desc' : 'asc');
      const direction = sort === 'oldest' ? 'asc' : 'desc';
      const rows = await query
        .orderBy(tradeTime, direction)
        .orderBy('trades.trade_num', direction)
        .orderBy('trades.account_key', 'asc')
        .limit(Math.max(1, Math.trunc(limit)))
        .execute();
      return rows.map(toTradeItem);
    },

    /** The few columns totals are made of, for every selected trade, oldest first. */
    async figures(userId: string, s: TradeSelection): Promise<TradeFigures[]> {
      const rows = await selectTrades(db, userId, s)
        .select([
          'trades.account_key',
          'trades.trade_id',
          'trades.instrument',
          'trades.realized_pl',
          'trades.unrealized_pl',
          'trades.financing',
          'trades.close_time',
        ])
        .orderBy('trades.open_time', 'asc')
        .orderBy('trades.trade_num', 'asc')
        .orderBy('trades.account_key', 'asc')
        .execute();
      return rows.map(({ account_key, ...row }) => ({ account_id: apiAccountId(account_key), ...row }));
    },

    /** Every selected trade, oldest first, with its initial stop. */
    async trades(userId: string, s: TradeSelection): Promise<StoredTradeItem[]> {
      const rows = await selectTrades(db, userId, s)
        .selectAll('trades')
        .orderBy('trades.open_time', 'asc')
        .orderBy('trades.trade_num', 'asc')
        .orderBy('trades.account_key', 'asc')
        .execute();
      return rows.map((row) => ({ ...toTradeItem(row), initialStopLossPrice: row.initial_stop_loss_price ?? null }));
    },

    /** The newest write of a selected trade; null when there is none. */
    async latestWrite(userId: string, s: TradeSelection): Promise<string | null> {
      const row = await selectTrades(db, userId, s)
        .select((eb) => eb.fn.max('trades.updated_at').as('at'))
        .executeTakeFirst();
      return row?.at ?? null;
    },
  };
}
