import type { RuleStatus } from '@pipsense/contract';

/**
 * docs/PRODUCT.md, Overview, Rules: a set is active once its status exists (it has started) while it is neither
 * breached nor passed; on track, paused until the reset and 'not enough data' are all still running.
 */
export const isActive = (status: RuleStatus): boolean => status.state !== 'breached' && status.state !== 'passed';

/** 'Fri, 28 Nov, 00:00': the next reset on the trader's clock (the zone the Overview's charts are in). */
export function formatReset(iso: string, timeZone: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(time);
}
