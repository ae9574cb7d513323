import type { DataOrigin } from './chat-data';
import { localFields } from '../../../domain/calendar';

/** '2025-03-14 10:22 UTC' in the trader's zone (the zone's name follows unless it is UTC). */
export function formatInstant(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const f = localFields(date.getTime(), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  const zone = timeZone === 'UTC' || timeZone === 'Etc/UTC' ? 'UTC' : timeZone;
  return `${f.y}-${two(f.m)}-${two(f.d)} ${two(f.hour)}:${two(f.minute)} ${zone}`;
}

/** '2026-11-20' in the trader's zone. */
function localDay(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const f = localFields(date.getTime(), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${f.y}-${two(f.m)}-${two(f.d)}`;
}

/** 'from your MetaTrader import of 2026-11-20' (imported data is never live). */
function importNote(at: string | null, timeZone = 'UTC'): string {
  return at ? `from your MetaTrader import of ${localDay(at, timeZone)}` : 'nothing imported from MetaTrader yet';
}

/**
 * How an answer names its source: 'from OANDA just now', 'from your last sync at …' or 'from your MetaTrader
 * import of …'.
 */
export function originNote(origin: DataOrigin, timeZone = 'UTC'): string {
  if (origin.kind === 'oanda') return 'from OANDA just now';
  if (origin.kind === 'import') return importNote(origin.at, timeZone);
  const when = origin.at ? `from your last sync at ${formatInstant(origin.at, timeZone)}` : 'nothing synced yet';
  if (origin.reason === 'oanda_failed')
    return `${when} (OANDA could not be asked just now${origin.detail ? `: ${origin.detail.replace(/\.$/, '')}` : ''})`;
  return when;
}

/**
 * 'from your last sync at …' for data that only ever comes from a sync (the closed-trade history); for imported
 * data (`origin` of kind 'import') the import's note.
 */
export function historyNote(syncedAt: string | null, timeZone = 'UTC', origin?: DataOrigin): string {
  if (origin?.kind === 'import') return importNote(syncedAt, timeZone);
  return syncedAt ? `from your last sync at ${formatInstant(syncedAt, timeZone)}` : 'nothing synced yet';
}
