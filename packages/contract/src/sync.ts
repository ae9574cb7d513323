import { z } from 'zod';
import { envelope } from './common';

/**
 * Background sync of the OANDA connection: a schedule per user and the status the Trades and Accounts
 * screens show ("synced 3 min ago · next in 12 min", a running sync's progress, the last error).
 */
export const SYNC_INTERVALS = ['off', '5m', '15m', '1h'] as const;
export type SyncInterval = (typeof SYNC_INTERVALS)[number];
export const DEFAULT_SYNC_INTERVAL: SyncInterval = '15m';

/** Minutes between two background syncs; 0 = off. */
export const SYNC_INTERVAL_MINUTES: Record<SyncInterval, number> = { off: 0, '5m': 5, '15m': 15, '1h': 60 };

export const SYNC_INTERVAL_LABELS: Record<SyncInterval, string> = {
  off: 'Off',
  '5m': 'Every 5 minutes',
  '15m': 'Every 15 minutes',
  '1h': 'Hourly',
};

const syncInterval = z.enum(SYNC_INTERVALS, { error: `interval must be one of ${SYNC_INTERVALS.join(', ')}` });

export const syncScheduleBody = z.object({ interval: syncInterval });

const syncProgress = z.object({
  /** When the running sync started (UTC ISO-8601). */
  startedAt: z.string(),
  /** Trade pages written so far. */
  pages: z.number().int().nonnegative(),
  /** Trades written so far. */
  trades: z.number().int().nonnegative(),
});

const syncStatus = z.object({
  interval: syncInterval,
  /** False when no OANDA token is saved: nothing is scheduled. */
  connected: z.boolean(),
  lastSyncedAt: z.string().nullable(),
  /** The next background sync; null when off, paused or not connected. */
  nextDueAt: z.string().nullable(),
  running: syncProgress.nullable(),
  lastError: z.string().nullable(),
  /** Failed background syncs in a row. */
  failures: z.number().int().nonnegative(),
  /** Background syncs stopped after repeated failures until the token is updated (or a manual sync succeeds). */
  paused: z.boolean(),
  /** The server's clock, so that "3 min ago" does not depend on the browser's. */
  now: z.string(),
});
export type SyncStatus = z.infer<typeof syncStatus>;

export const syncStatusResponse = envelope.extend({ data: syncStatus });
export type SyncStatusResponse = z.infer<typeof syncStatusResponse>;
