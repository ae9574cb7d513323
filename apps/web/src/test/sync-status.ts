import type { SyncStatus } from '@pipsense/contract';

/** The background sync status route and a status on a fixed server clock, for every web test of the sync line. */
export const SYNC_STATUS = '/api/v1/sync/status';
export const SYNC_NOW = '2026-01-05T12:00:00.000Z';

/** `minutes` from SYNC_NOW, as the server writes times. */
export const syncAt = (minutes: number) => new Date(Date.parse(SYNC_NOW) + minutes * 60_000).toISOString();

/** Synced 3 min ago, next in 12 min, every 15 min; `over` changes any field. */
export const syncStatus = (over: Partial<SyncStatus> = {}): SyncStatus => ({
  interval: '15m',
  connected: true,
  lastSyncedAt: syncAt(-3),
  nextDueAt: syncAt(12),
  running: null,
  lastError: null,
  failures: 0,
  paused: false,
  now: SYNC_NOW,
  ...over,
});

/** The route's envelope around a status. */
export const syncStatusBody = (s: SyncStatus) => ({ success: true, message: 'Sync status loaded.', data: s });
