import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE, type TradeListResponse } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { unwrapApi } from '../../../components/data/api-error';

/** Every cached page of trade history, whatever the service: cleared on a platform switch, refetched after a sync. */
export const tradeHistoryKey = ['trade-history'] as const;

/** GET {trading host}/api/v1/trade/get_trade_history?page&limit=10, newest first. */
export function fetchTradeHistory(base: string, page: number, signal?: AbortSignal): Promise<TradeListResponse> {
  return unwrapApi(
    authRequest<TradeListResponse>('GET', `${base}/api/v1/trade/get_trade_history`, { page, limit: PAGE_SIZE }, signal),
  );
}

export const tradeHistoryQuery = (base: string, page: number) =>
  queryOptions({
    queryKey: [...tradeHistoryKey, base, page],
    queryFn: ({ signal }) => fetchTradeHistory(base, page, signal),
    // The rows of the page being left stay (under a spinner) until the next page arrives.
    placeholderData: keepPreviousData,
  });

export const useTradeHistory = (base: string, page: number) => useQuery(tradeHistoryQuery(base, page));
