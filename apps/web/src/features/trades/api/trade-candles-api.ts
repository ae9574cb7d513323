import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CandlesResponse, CandlesResult, Granularity } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export interface CandleWindow {
  instrument: string;
  granularity: Granularity;
  /** RFC 3339 instants. */
  from: string;
  to: string;
}

/** GET {trading host}/api/v1/trade/candles: OANDA mid candles fetched through the server. */
function fetchCandles(base: string, window: CandleWindow, signal?: AbortSignal): Promise<CandlesResult> {
  const { instrument, granularity, from, to } = window;
  return authRequest<CandlesResponse>(
    'GET',
    `${base}/api/v1/trade/candles`,
    { instrument, granularity, from, to },
    signal,
  ).then((body) => body.data);
}

const tradeCandlesQuery = (base: string, window: CandleWindow) =>
  queryOptions({
    queryKey: queryKeys.tradeCandles(base, window.instrument, window.granularity, window.from, window.to),
    queryFn: ({ signal }) => fetchCandles(base, window, signal),
    // Past candles do not change; the window of an open trade ends at the moment it was opened in the modal.
    staleTime: 5 * 60_000,
  });

export const useTradeCandles = (base: string, window: CandleWindow) => useQuery(tradeCandlesQuery(base, window));
