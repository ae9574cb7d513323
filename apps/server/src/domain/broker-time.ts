import type { BrokerTimeName } from '@pipsense/contract';
import { HOUR_MS, DAY_MS, zoneClock } from './calendar';
import { wallClockToUtc } from './datetime';

/*
 * A MetaTrader server's clock: reports print the broker's server time without a zone
 * (docs/decisions/012-metatrader-import.md, "Server time"). Most brokers keep the daily candle closing at 17:00 New
 * York, so their server runs at New York time + 7 h: UTC+2, UTC+3 while New York is on summer time (`ny-close-us`).
 * Some switch with the EU instead (`ny-close-eu`: UTC+2, UTC+3 during EU summer time, the switch at 01:00 UTC, as
 * Europe/Helsinki's EET/EEST). Others keep one offset all year (`fixed`). The named rules read the tz database
 * through Intl (calendar.ts ZoneClock), per trade by its own date, never a table of ours.
 */

type NamedRule = Exclude<BrokerTimeName, 'fixed'>;
/** A rule (the contract's BROKER_TIMES) and, for `fixed`, its offset ('+02:00'). */
export type BrokerTime = { rule: NamedRule } | { rule: 'fixed'; offset: string };

/** A named rule as a zone and the shift of the server's wall clock from that zone's (server = zone + shift). */
const NAMED: Record<NamedRule, { zone: string; shift: number }> = {
  'ny-close-us': { zone: 'America/New_York', shift: 7 * HOUR_MS },
  'ny-close-eu': { zone: 'Europe/Helsinki', shift: 0 },
};

/**
 * The UTC instants (ms) a server's wall-clock time (`YYYY-MM-DDTHH:mm:ss`, read as if UTC: `wallMs`) stands for
 * under a named rule: one; two in the autumn hour that repeats (earlier first); none in the spring hour that does
 * not exist.
 */
function instantsOf(wallMs: number, rule: NamedRule): number[] {
  const { zone, shift } = NAMED[rule];
  const clock = zoneClock(zone);
  const zoneWall = wallMs - shift;
  // The offsets in force a day either side: a zone changes its offset at most once in a week (calendar.ts).
  const offsets = new Set([clock.offsetAt(zoneWall - DAY_MS), clock.offsetAt(zoneWall + DAY_MS)]);
  const out: number[] = [];
  for (const offset of offsets) {
    const instant = zoneWall - offset;
    if (clock.offsetAt(instant) === offset) out.push(instant);
  }
  return out.sort((a, b) => a - b);
}

/**
 * How a named rule reads a wall-clock time: the instant, or both instants of a repeated hour (`later` set), in ms.
 * A wall time in the spring gap does not exist on a server that follows the rule; the server that printed it had
 * already put its clock forward, so it is read at the offset after the switch (the summer offset).
 */
export function serverInstants(wallClock: string, time: BrokerTime): { earlier: number; later?: number } {
  const wallMs = Date.parse(`${wallClock}Z`);
  if (Number.isNaN(wallMs)) throw new Error(`not a wall-clock time: ${wallClock}`);
  if (time.rule === 'fixed') return { earlier: Date.parse(wallClockToUtc(wallClock, time.offset)) };
  const found = instantsOf(wallMs, time.rule);
  if (found.length === 2) return { earlier: found[0]!, later: found[1]! };
  if (found.length === 1) return { earlier: found[0]! };
  const { zone, shift } = NAMED[time.rule];
  const after = zoneClock(zone).offsetAt(wallMs - shift + DAY_MS);
  return { earlier: wallMs - shift - after };
}

/**
 * A UTC instant (ms) in the stored UTC form (datetime.ts), keeping the wall clock's fraction (reports print whole
 * seconds, so the instant's own milliseconds are zero).
 */
function storedInstant(ms: number, wallClock: string): string {
  const fraction = /\.(\d+)$/.exec(wallClock)?.[1] ?? '';
  return `${new Date(ms).toISOString().slice(0, 19)}.${fraction.padEnd(9, '0').slice(0, 9)}Z`;
}

/** The server's UTC offset at a UTC instant under a rule ('+03:00'), as the preview lists the offsets it used. */
export function serverOffsetAt(ms: number, time: BrokerTime): string {
  if (time.rule === 'fixed') return time.offset;
  const { zone, shift } = NAMED[time.rule];
  const minutes = Math.round((zoneClock(zone).offsetAt(ms) + shift) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Tickets read as numbers for their order; null when a ticket is not a plain number (a CSV's `row-<n>`). */
const ticketOrder = (ticket: string): number | null => (/^\d{1,15}$/.test(ticket) ? Number(ticket) : null);

/**
 * Every trade's open and close times (server wall clocks) as stored UTC times under a rule, each by its own date.
 * In the autumn hour that repeats a wall time stands for two instants: the earlier is taken, unless the tickets say
 * otherwise. Tickets grow with time, so an open time whose earlier instant would come before the open time of a
 * trade with a lower ticket takes the later instant; a close time whose earlier instant would come before its own
 * trade's open takes the later one.
 */
export function serverTimesToUtc(
  trades: ReadonlyArray<{ ticket: string; openTime: string; closeTime: string | null }>,
  time: BrokerTime,
): Array<{ openTime: string; closeTime: string | null }> {
  const opens = trades.map((t) => serverInstants(t.openTime, time));
  const openAt = opens.map((o) => o.earlier);
  if (opens.some((o) => o.later !== undefined)) {
    // In ticket order, the latest open so far among lower tickets decides each repeated hour.
    const byTicket = trades
      .map((t, i) => ({ i, n: ticketOrder(t.ticket) }))
      .filter((t): t is { i: number; n: number } => t.n !== null)
      .sort((a, b) => a.n - b.n);
    let latest = -Infinity;
    let at = 0;
    while (at < byTicket.length) {
      // Trades sharing a ticket (an MT5 netting reversal) do not order one another.
      let end = at;
      while (end < byTicket.length && byTicket[end]!.n === byTicket[at]!.n) end += 1;
      let groupLatest = latest;
      for (const { i } of byTicket.slice(at, end)) {
        const { earlier, later } = opens[i]!;
        if (later !== undefined && earlier < latest) openAt[i] = later;
        groupLatest = Math.max(groupLatest, openAt[i]!);
      }
      latest = groupLatest;
      at = end;
    }
  }
  return trades.map((t, i) => {
    const open = openAt[i]!;
    let closeTime: string | null = null;
    if (t.closeTime !== null) {
      const close = serverInstants(t.closeTime, time);
      const closeAt = close.later !== undefined && close.earlier < open ? close.later : close.earlier;
      closeTime = storedInstant(closeAt, t.closeTime);
    }
    return { openTime: storedInstant(open, t.openTime), closeTime };
  });
}
