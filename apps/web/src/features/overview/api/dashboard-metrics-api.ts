import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardMetricsResponse } from '@pipsense/contract';
import { accountsOfPlatformQuery } from '../../../lib/accounts-query';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/**
 * While the AI provider is still writing the insights the server shows the built-in text and says 'pending'; asking
 * again this often picks up the provider's text soon after it lands without hammering the server.
 */
export const INSIGHTS_POLL_MS = 3000;

/** The overview's filters as query parameters; `tag` may repeat. */
export type MetricsFilterParams = readonly (readonly [string, string])[];

/**
 * GET {trading host}/api/v1/dashboard/metrics?timeZone=…[&from&to&accountId&instrument&tag…]; without a mode it
 * covers demo and live together.
 */
function fetchDashboardMetrics(
  base: string,
  timeZone: string,
  filters: MetricsFilterParams,
  signal?: AbortSignal,
): Promise<DashboardMetricsResponse> {
  const query = new URLSearchParams(filters.map(([k, v]) => [k, v]));
  const url = `${base}/api/v1/dashboard/metrics${query.size > 0 ? `?${query.toString()}` : ''}`;
  return authRequest<DashboardMetricsResponse>('GET', url, { timeZone }, signal);
}

/** Poll only while the insights are pending; 'ready' and 'fallback' are final for this data. */
function insightsPollInterval(response: DashboardMetricsResponse | undefined): number | false {
  return response?.data.insights.status === 'pending' ? INSIGHTS_POLL_MS : false;
}

const dashboardMetricsQuery = (base: string, timeZone: string, filters: MetricsFilterParams) =>
  queryOptions({
    queryKey: queryKeys.dashboardMetrics.of(base, timeZone, filters),
    queryFn: ({ signal }) => fetchDashboardMetrics(base, timeZone, filters, signal),
    // A sync on the Trades or Accounts screen changes the numbers: every visit asks again (the cached overview
    // shows meanwhile).
    staleTime: 0,
    // A filter change keeps the previous numbers on screen (marked as updating) until the new ones arrive.
    placeholderData: keepPreviousData,
    refetchInterval: (query) => insightsPollInterval(query.state.data),
  });

export const useDashboardMetrics = (
  base: string,
  timeZone: string,
  filters: MetricsFilterParams = [],
  enabled = true,
) => useQuery({ ...dashboardMetricsQuery(base, timeZone, filters), enabled });

/**
 * The accounts the filter offers (the first 100: a trader has a handful), of the platform named (`metatrader`; none
 * for the default, OANDA).
 */
export const useAccountOptions = (base: string, platform?: string) =>
  useQuery({ ...accountsOfPlatformQuery(base, platform), select: (body) => body.data, staleTime: 60_000 });
