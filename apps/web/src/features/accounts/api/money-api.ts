import { queryOptions } from '@tanstack/react-query';
import type {
  BalanceHistory,
  BalanceHistoryResponse,
  BalanceResolution,
  CashFlowsResponse,
  ReturnPeriodName,
  ReturnsResponse,
} from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { equityState } from '../model/account-money';

/** How often a history whose equity is still being rebuilt from candles is asked again, and how many times. */
const REBUILD_POLL_MS = 5000;
const REBUILD_POLLS = 24;

/** Whether a history is asked again: some equity is known and some is still missing, and the polls are not spent. */
export const rebuildPolling = (data: BalanceHistory | undefined, updates: number) =>
  data !== undefined && equityState(data) === 'partial' && updates <= REBUILD_POLLS;

/** GET {trading host}/api/v1/money/get_cash_flows?accountId: every cash flow of the account, oldest first. */
export const cashFlowsQuery = (base: string, accountId: string) =>
  queryOptions({
    queryKey: queryKeys.accounts.money(base, accountId, 'cash-flows'),
    queryFn: ({ signal }) =>
      authRequest<CashFlowsResponse>('GET', `${base}/api/v1/money/get_cash_flows`, { accountId }, signal).then(
        (body) => body.data,
      ),
  });

/**
 * GET {trading host}/api/v1/money/get_balance_history/:accountId?resolution: the whole history. While equity is being
 * rebuilt from candles in the background (docs/money.md, E(t)) it is asked again every few seconds, for two minutes
 * at most.
 */
export const balanceHistoryQuery = (base: string, accountId: string, resolution: BalanceResolution) =>
  queryOptions({
    queryKey: queryKeys.accounts.money(base, accountId, 'history', resolution),
    queryFn: ({ signal }) =>
      authRequest<BalanceHistoryResponse>(
        'GET',
        `${base}/api/v1/money/get_balance_history/${encodeURIComponent(accountId)}`,
        { resolution },
        signal,
      ).then((body) => body.data),
    refetchInterval: (query) =>
      rebuildPolling(query.state.data, query.state.dataUpdateCount) ? REBUILD_POLL_MS : false,
  });

/**
 * GET {trading host}/api/v1/money/get_returns?accountId&period: time-weighted returns since the start, with the
 * period they were asked for (the previous period's list stays on screen while the next one loads).
 */
export const returnsQuery = (base: string, accountId: string, period: ReturnPeriodName) =>
  queryOptions({
    queryKey: queryKeys.accounts.money(base, accountId, 'returns', period),
    queryFn: ({ signal }) =>
      authRequest<ReturnsResponse>('GET', `${base}/api/v1/money/get_returns`, { accountId, period }, signal).then(
        (body) => ({ ...body.data, period }),
      ),
  });
