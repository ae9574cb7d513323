import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Replay, ReplayGranularity } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export interface ReplayRequest {
  accountId: string;
  tradeId: string;
  /** null: the server picks the finest granularity that keeps the trade within its candle limit. */
  granularity: ReplayGranularity | null;
  before: number;
}

/** GET {trading host}/api/v1/trade/get_replay/:accountId/:tradeId: the trade's candles and events. */
function fetchReplay(base: string, request: ReplayRequest, signal?: AbortSignal): Promise<Replay> {
  const path = `${base}/api/v1/trade/get_replay/${encodeURIComponent(request.accountId)}/${encodeURIComponent(request.tradeId)}`;
  return authRequest<{ data: Replay }>(
    'GET',
    path,
    { before: request.before, ...(request.granularity ? { granularity: request.granularity } : {}) },
    signal,
  ).then((body) => body.data);
}

export const useTradeReplay = (base: string, request: ReplayRequest) =>
  useQuery({
    queryKey: queryKeys.tradeReplay(base, request.accountId, request.tradeId, request.granularity, request.before),
    queryFn: ({ signal }) => fetchReplay(base, request, signal),
    // Past candles do not change; a 409 (no candle source) or a 400 is an answer, not a hiccup to retry.
    staleTime: 5 * 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
