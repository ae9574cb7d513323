import type { Kysely } from 'kysely';
import { platformByQuery, type Mode, type PlatformQuery } from '@pipsense/contract';
import type { Database } from '../../db/schema';
import { apiAccountId } from '../trading/trading.service';
import type { EngineTradeFields } from './engine';

/** A stored trade as the Overview reads it: the engine's fields and the initial stop. */
export interface OverviewTrade extends EngineTradeFields {
  initialStopLossPrice: string | null;
}

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

const DAY_MS = 86_400_000;

/**
 * The Overview's read of the trades table: only the columns the engine needs, with the slice's filters in SQL (the
 * date range widened by a day there, since stored times and ISO bounds do not compare as text to the digit, and
 * made exact here), oldest first as the engine reads a history. The trading module owns the rows; this is the
 * Overview's read model of them, like journal-facts.service.ts's.
 */
export function createOverviewTrades(db: Kysely<Database>) {
  return {
    async trades(userId: string, slice: OverviewSlice): Promise<OverviewTrade[]> {
      let query = db
        .selectFrom('trades as t')
        .select([
          't.account_key',
          't.trade_id',
          't.instrument',
          't.price',
          't.initial_units',
          't.current_units',
          't.realized_pl',
          't.unrealized_pl',
          't.financing',
          't.state',
          't.open_time',
          't.close_time',
          't.average_close_price',
          't.stop_loss_price',
          't.take_profit_price',
          't.trailing_stop_distance',
          't.initial_stop_loss_price',
        ])
        .where('t.user_id', '=', userId)
        .where('t.platform', '=', platformByQuery(slice.platform).stored);
      if (slice.mode) query = query.where('t.mode', '=', slice.mode);
      if (slice.accountId) {
        const named = slice.accountId;
        query = query.where('t.account_key', 'in', (eb) =>
          eb
            .selectFrom('broker_accounts')
            .select('account_key')
            .where('user_id', '=', userId)
            .where((w) => w.or([w('login', '=', named), w('account_key', '=', named)])),
        );
      }
      if (slice.instrument) query = query.where('t.instrument', '=', slice.instrument);
      const from = slice.from ? Date.parse(slice.from) : null;
      const to = slice.to ? Date.parse(slice.to) : null;
      if (from !== null) query = query.where('t.open_time', '>=', new Date(from - DAY_MS).toISOString());
      if (to !== null) query = query.where('t.open_time', '<=', new Date(to + DAY_MS).toISOString());
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
      const rows = await query
        .orderBy('t.open_time', 'asc')
        .orderBy('t.trade_num', 'asc')
        .orderBy('t.account_key', 'asc')
        .execute();
      const accountIds = new Map<string, string>();
      const out: OverviewTrade[] = [];
      for (const r of rows) {
        if (from !== null || to !== null) {
          const opened = Date.parse(r.open_time);
          if ((from !== null && opened < from) || (to !== null && opened > to)) continue;
        }
        let accountId = accountIds.get(r.account_key);
        if (accountId === undefined) accountIds.set(r.account_key, (accountId = apiAccountId(r.account_key)));
        out.push({
          accountId,
          tradeId: r.trade_id,
          instrument: r.instrument,
          price: r.price,
          initialUnits: r.initial_units,
          currentUnits: r.current_units,
          realizedPL: r.realized_pl,
          unrealizedPL: r.unrealized_pl,
          financing: r.financing,
          state: r.state,
          openTime: r.open_time,
          closeTime: r.close_time,
          averageClosePrice: r.average_close_price,
          stopLossPrice: r.stop_loss_price,
          takeProfitPrice: r.take_profit_price,
          trailingStopDistance: r.trailing_stop_distance,
          initialStopLossPrice: r.initial_stop_loss_price,
        });
      }
      return out;
    },
  };
}
export type OverviewTrades = ReturnType<typeof createOverviewTrades>;
