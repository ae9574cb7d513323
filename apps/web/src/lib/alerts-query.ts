import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { ReadAlertsBody, ReadAlertsResponse, RuleAlertsResponse } from '@pipsense/contract';
import { config } from '../config/env';
import { authRequest, failureMessage } from './api';
import { queryKeys } from './query-keys';

/** The alerts routes (docs/rules.md, Alerts) are served by the PipSense server itself, beside the other rules routes. */
const rulesBase = `${config.backend}/api/v1/rules`;

/**
 * GET rules/get_alerts: every alert, newest first, and the unread count. The header's bell and My Rules read the same
 * cache; it is read again every minute and when the window regains focus, so a limit crossed by the background sync
 * shows without a reload.
 */
export const alertsQuery = () =>
  queryOptions({
    queryKey: queryKeys.rules.alerts,
    queryFn: ({ signal }) =>
      authRequest<RuleAlertsResponse>('GET', `${rulesBase}/get_alerts`, undefined, signal).then((b) => b.data),
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });

/**
 * POST rules/read_alerts: the given alerts, or every unread one without ids, marked read. The cache is marked at once
 * (the badge clears on the click), then read again from the server.
 */
export function useReadAlerts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReadAlertsBody) =>
      authRequest<ReadAlertsResponse>('POST', `${rulesBase}/read_alerts`, body as Record<string, unknown>),
    onSuccess: (_answer, { ids }) => {
      const now = new Date().toISOString();
      client.setQueryData<RuleAlertsResponse['data']>(queryKeys.rules.alerts, (data) => {
        if (!data) return data;
        if (ids === undefined)
          return { alerts: data.alerts.map((a) => ({ ...a, readAt: a.readAt ?? now })), unread: 0 };
        const marked = data.alerts.filter((a) => a.readAt === null && ids.includes(a.id)).length;
        const alerts = data.alerts.map((a) => (a.readAt === null && ids.includes(a.id) ? { ...a, readAt: now } : a));
        return { alerts, unread: Math.max(0, data.unread - marked) };
      });
      return client.invalidateQueries({ queryKey: queryKeys.rules.alerts });
    },
    // The bell and My Rules say it alike; the marks stay as they were.
    onError: (error) => toast.error(failureMessage(error, 'The alerts could not be marked read.')),
  });
}
