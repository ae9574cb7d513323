import { queryOptions } from '@tanstack/react-query';
import type { CashFlowsResponse, ReturnPeriodName, ReturnsResponse } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

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
