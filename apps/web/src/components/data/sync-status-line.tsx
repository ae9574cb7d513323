import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { queryKeys } from '../../lib/query-keys';
import { syncStatusQuery, syncStatusText } from './sync-status-query';

/**
 * The OANDA background sync under a list's header: "Synced 3 min ago · next in 12 min", a running sync's progress
 * and the last error, polled (every few seconds while a sync runs). When a sync finishes the list is refetched.
 * Shows nothing without an OANDA connection or when the status cannot be read.
 */
export function SyncStatusLine({ listKey }: { listKey: QueryKey }) {
  const client = useQueryClient();
  const status = useQuery(syncStatusQuery);
  // Time since the status was read, moved on every 15 s so that "3 min ago" keeps counting between polls.
  const updatedAt = status.dataUpdatedAt;
  const [elapsed, setElapsed] = useState({ since: updatedAt, ms: 0 });
  useEffect(() => {
    const timer = setInterval(() => setElapsed({ since: updatedAt, ms: Date.now() - updatedAt }), 15_000);
    return () => clearInterval(timer);
  }, [updatedAt]);

  // A newer sync than the one seen first (background or manual): the list shows its rows.
  const lastSyncedAt = status.data?.lastSyncedAt ?? null;
  const seen = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (status.data === undefined) return;
    if (seen.current !== undefined && lastSyncedAt !== seen.current) {
      void client.invalidateQueries({ queryKey: listKey });
      // The sync's trades may have crossed an alert threshold (docs/PRODUCT.md, My Rules: Alerts).
      void client.invalidateQueries({ queryKey: queryKeys.rules.alerts });
    }
    seen.current = lastSyncedAt;
  }, [status.data, lastSyncedAt, client, listKey]);

  if (!status.data?.connected) return null;
  const { line, error } = syncStatusText(status.data, elapsed.since === updatedAt ? elapsed.ms : 0);
  return (
    <div role="status" aria-label="Background sync" className="small px-3 pt-2 mb-1">
      <span className="text-body-secondary">{line}</span>
      {error && <div className={status.data.paused ? 'text-warning-emphasis' : 'text-danger'}>{error}</div>}
    </div>
  );
}
