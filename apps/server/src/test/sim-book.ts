import type { TradeItem } from '@pipsense/contract';
import type { OandaSim, WireTrade } from '@pipsense/oanda-sim';
import type { ApiCall } from './oanda-user';

/*
 * The simulator's book and the trades PipSense stored, as comparable sorted lines: the stored trades are exactly
 * the broker's when the two lists are equal. Read through an ApiCall, so in-process apps and server processes alike.
 */

const wireLine = (accountId: string, tr: WireTrade) =>
  [
    accountId,
    tr.id,
    tr.state,
    tr.instrument,
    tr.price,
    tr.initialUnits,
    tr.currentUnits,
    tr.realizedPL,
    tr.unrealizedPL ?? null,
    tr.financing,
    tr.openTime,
    tr.closeTime ?? null,
    tr.averageClosePrice ?? null,
    tr.stopLossOrder?.price ?? null,
    tr.takeProfitOrder?.price ?? null,
    tr.trailingStopLossOrder?.distance ?? null,
  ].join('|');

/** Every trade of the simulator's accounts (all of them unless told), one sorted line each. */
export const simBook = (s: OandaSim, accountIds = s.accountIds) =>
  accountIds.flatMap((id) => s.state.trades(id).map((tr) => wireLine(id, tr))).sort();

/** Stored trades in the same lines as simBook. */
export const storedBook = (trades: TradeItem[]) =>
  trades
    .map((tr) =>
      [
        tr.accountId,
        tr.tradeId,
        tr.state,
        tr.instrument,
        tr.price,
        tr.initialUnits,
        tr.currentUnits,
        tr.realizedPL,
        tr.unrealizedPL,
        tr.financing,
        tr.openTime,
        tr.closeTime,
        tr.averageClosePrice,
        tr.stopLossPrice,
        tr.takeProfitPrice,
        tr.trailingStopDistance,
      ].join('|'),
    )
    .sort();

/** Every trade the user has stored, page by page through the trade history route. */
export async function storedTrades(call: ApiCall): Promise<TradeItem[]> {
  const out: TradeItem[] = [];
  for (let page = 1; ; page += 1) {
    const res = await call({ method: 'GET', path: `/api/v1/trade/get_trade_history?page=${page}&limit=100` });
    if (res.status !== 200) throw new Error(`trade history answered ${res.status}: ${res.text}`);
    const body = JSON.parse(res.text) as { data: TradeItem[]; pages: number };
    out.push(...body.data);
    if (page >= body.pages) return out;
  }
}
