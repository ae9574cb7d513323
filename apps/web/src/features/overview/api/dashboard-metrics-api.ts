import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardMetricsResponse } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/**
 * While the AI provider is still writing the insights the server shows the built-in text and says 'pending'; asking
 * again this often picks up the provider's text soon after it lands without hammering the server.
 */
export const INSIGHTS_POLL_MS = 3000;

/** GET {trading host}/api/v1/dashboard/metrics?timeZone=…; without a mode it covers demo and live together. */
function fetchDashboardMetrics(
  base: string,
  timeZone: string,
  signal?: AbortSignal,
): Promise<DashboardMetricsResponse> {
  return authRequest<DashboardMetricsResponse>('GET', `${base}/api/v1/dashboard/metrics`, { timeZone }, signal);
}

/** Poll only while the insights are pending; 'ready' and 'fallback' are final for this data. */
function insightsPollInterval(response: DashboardMetricsResponse | undefined): number | false {
  return response?.data.insights.status === 'pending' ? INSIGHTS_POLL_MS : false;
}

const dashboardMetricsQuery = (base: string, timeZone: string) =>
  queryOptions({
    queryKey: queryKeys.dashboardMetrics.of(base, timeZone),
    queryFn: ({ signal }) => fetchDashboardMetrics(base, timeZone, signal),
    // A sync on the Trades or Accounts screen changes the numbers: every visit asks again (the cached overview
    // shows meanwhile).
    staleTime: 0,
    refetchInterval: (query) => insightsPollInterval(query.state.data),
  });

export const useDashboardMetrics = (base: string, timeZone: string) => useQuery(dashboardMetricsQuery(base, timeZone));
