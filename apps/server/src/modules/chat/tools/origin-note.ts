import type { DataOrigin } from './chat-data';

// Building a DateTimeFormat costs far more than formatting with one (about half a millisecond); zones are few.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** '2025-03-14 10:22 UTC' in the trader's zone (the zone's name follows unless it is UTC). */
export function formatInstant(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts: Record<string, string> = {};
  const f = formatter(timeZone);
  for (const p of f.formatToParts(date)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${timeZone === 'UTC' || timeZone === 'Etc/UTC' ? 'UTC' : timeZone}`;
}

/** How an answer names its source: 'from OANDA just now' or 'from your last sync at …'. */
export function originNote(origin: DataOrigin, timeZone = 'UTC'): string {
  if (origin.kind === 'oanda') return 'from OANDA just now';
  const when = origin.at ? `from your last sync at ${formatInstant(origin.at, timeZone)}` : 'nothing synced yet';
  if (origin.reason === 'oanda_failed')
    return `${when} (OANDA could not be asked just now${origin.detail ? `: ${origin.detail.replace(/\.$/, '')}` : ''})`;
  return when;
}

/** 'from your last sync at …' for data that only ever comes from a sync (the closed-trade history). */
export function historyNote(syncedAt: string | null, timeZone = 'UTC'): string {
  return syncedAt ? `from your last sync at ${formatInstant(syncedAt, timeZone)}` : 'nothing synced yet';
}
