import type { TradeListResponse, TradeSyncResponse } from '@pipsense/contract';
import { usePagedList } from '../../../components/data/use-paged-list';
import { useSync } from '../../../components/data/use-sync';
import { queryKeys } from '../../../lib/query-keys';

/** GET {trading host}/api/v1/trade/get_trade_history?page&limit=10, newest first. */
export const useTradeHistory = (base: string, page: number) =>
  usePagedList<TradeListResponse>(queryKeys.tradeHistory.page(base, page), `${base}/api/v1/trade/get_trade_history`, page);

/** GET {trading host}/api/v1/trade/sync_trade: the server reads OANDA and answers with what it did. */
export const useSyncTrades = (base: string | null) =>
  useSync<TradeSyncResponse>(base, '/api/v1/trade/sync_trade', queryKeys.tradeHistory.all);
