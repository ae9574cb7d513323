import { queryOptions } from '@tanstack/react-query';
import type { BalanceHistory, BalanceHistoryResponse, BalanceResolution } from '@pipsense/contract';
import { authRequest } from './api';
import { queryKeys } from './query-keys';

/** How often a history whose equity is still being rebuilt from candles is asked again, and how many times. */
const REBUILD_POLL_MS = 5000;
const REBUILD_POLLS = 24;

/** The history's equity: every point known, none known (no candle source), or some still missing. */
export function equityState(history: BalanceHistory): 'complete' | 'unknown' | 'partial' {
  if (history.equityComplete || history.points.length === 0) return 'complete';
  return history.points.some((p) => p.equity !== null) ? 'partial' : 'unknown';
}

/** Whether a history is asked again: some equity is known and some is still missing, and the polls are not spent. */
export const rebuildPolling = (data: BalanceHistory | undefined, updates: number) =>
  data !== undefined && equityState(data) === 'partial' && updates <= REBUILD_POLLS;

/**
 * GET {trading host}/api/v1/money/get_balance_history/:accountId?resolution[&from]: the history from `from` (an
 * ISO-8601 instant) or the whole of it, to now: an account's money page, a rule set's equity chart. While equity is
 * being rebuilt from candles in the background (docs/money.md, E(t)) it is asked again every few seconds, for two
 * minutes at most.
 */
export const balanceHistoryQuery = (base: string, accountId: string, resolution: BalanceResolution, from?: string) =>
  queryOptions({
    queryKey: queryKeys.accounts.money(base, accountId, 'history', resolution, ...(from ? [from] : [])),
    queryFn: ({ signal }) =>
      authRequest<BalanceHistoryResponse>(
        'GET',
        `${base}/api/v1/money/get_balance_history/${encodeURIComponent(accountId)}`,
        { resolution, ...(from ? { from } : {}) },
        signal,
      ).then((body) => body.data),
    refetchInterval: (query) =>
      rebuildPolling(query.state.data, query.state.dataUpdateCount) ? REBUILD_POLL_MS : false,
  });
