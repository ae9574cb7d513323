import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncInterval, SyncStatus, SyncStatusResponse } from '@pipsense/contract';
import { config } from '../../config/env';
import { authRequest } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/** Polled every few seconds while a sync runs, every 30 s otherwise. */
const RUNNING_POLL_MS = 3000;
const IDLE_POLL_MS = 30_000;

/** GET {backend}/api/v1/sync/status: the OANDA background sync's schedule, last and next sync, progress, error. */
export const syncStatusQuery = queryOptions({
  queryKey: queryKeys.syncStatus,
  queryFn: ({ signal }): Promise<SyncStatus> =>
    authRequest<SyncStatusResponse>('GET', `${config.backend}/api/v1/sync/status`, undefined, signal).then(
      (r) => r.data,
    ),
  staleTime: 0,
  refetchInterval: (query) => (query.state.data?.running ? RUNNING_POLL_MS : IDLE_POLL_MS),
});

/** POST {backend}/api/v1/sync/schedule: the answer is the new status. */
export function useSyncSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (interval: SyncInterval) =>
      authRequest<SyncStatusResponse>('POST', `${config.backend}/api/v1/sync/schedule`, { interval }),
    onSuccess: (result) => client.setQueryData(queryKeys.syncStatus, result.data),
  });
}

/** "3 min ago" / "in 12 min": whole minutes, hours from 90 minutes on. */
function minutesText(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  if (minutes >= 90) {
    const hours = Math.round(minutes / 60);
    return `${hours} h`;
  }
  return `${minutes} min`;
}

/** The status line's words, on the server's clock (`status.now`, moved on by `elapsedMs` since it was read). */
export function syncStatusText(status: SyncStatus, elapsedMs = 0): { line: string; error: string | null } {
  const now = Date.parse(status.now) + elapsedMs;
  const parts: string[] = [];
  if (status.running) {
    const { pages, trades } = status.running;
    parts.push(
      pages > 0
        ? `Syncing… ${pages === 1 ? '1 page' : `${pages} pages`}, ${trades === 1 ? '1 trade' : `${trades.toLocaleString()} trades`} so far`
        : 'Syncing…',
    );
  } else if (status.lastSyncedAt) {
    const ago = now - Date.parse(status.lastSyncedAt);
    parts.push(ago < 60_000 ? 'Synced just now' : `Synced ${minutesText(ago)} ago`);
  } else parts.push('Not synced yet');
  if (status.paused) parts.push('background sync paused');
  else if (status.interval === 'off') parts.push('background sync off');
  else if (status.nextDueAt && !status.running) {
    const until = Date.parse(status.nextDueAt) - now;
    parts.push(until < 60_000 ? 'next any moment' : `next in ${minutesText(until)}`);
  }
  return { line: parts.join(' · '), error: status.lastError };
}
