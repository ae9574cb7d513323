import type { SessionName } from './types';
import { DAY_MS, HOUR_MS, zoneClock } from '../../../domain/calendar';

/**
 * Trading sessions in market time, so that they follow each centre's daylight saving:
 *   New York: 08:00–17:00 New York time (it owns the London/New York overlap, when US data and
 *             liquidity dominate);
 *   London:   08:00 London time until New York opens;
 *   Asia:     the rest, 17:00 New York until 08:00 London (Sydney, Tokyo, Singapore).
 * In UTC that is Asia 22:00–08:00, London 08:00–13:00, New York 13:00–22:00 in northern winter and
 * one hour earlier in summer. The three sessions partition the day, so shares add up to 100 %.
 */
export const SESSION_NAMES: readonly SessionName[] = ['Asia', 'London', 'New York'];

// Built at import, not on the first computation: loading a zone's ICU data costs 5–20 ms once.
const LONDON = zoneClock('Europe/London');
const NEW_YORK = zoneClock('America/New_York');

interface SessionDay {
  londonOpen: number;
  londonClose: number;
  newYorkOpen: number;
  newYorkClose: number;
}

const days = new Map<number, SessionDay>();
let lastDay = Number.NaN;
let last: SessionDay = { londonOpen: 0, londonClose: 0, newYorkOpen: 0, newYorkClose: 0 };

/**
 * The UTC instants of one UTC day's session boundaries. Every boundary of local date D falls in
 * UTC day D, and London and New York change their clocks at night (01:00 UTC and 06:00/07:00
 * UTC), so the offset at noon UTC is the one in force at each boundary.
 */
function sessionDay(day: number): SessionDay {
  if (day === lastDay) return last;
  let found = days.get(day);
  if (found === undefined) {
    const start = day * DAY_MS;
    const noon = start + 12 * HOUR_MS;
    const london = LONDON.offsetAt(noon);
    const newYork = NEW_YORK.offsetAt(noon);
    found = {
      londonOpen: start + 8 * HOUR_MS - london,
      londonClose: start + 17 * HOUR_MS - london,
      newYorkOpen: start + 8 * HOUR_MS - newYork,
      newYorkClose: start + 17 * HOUR_MS - newYork,
    };
    days.set(day, found);
  }
  lastDay = day;
  last = found;
  return found;
}

/** Index into SESSION_NAMES of the session a UTC instant falls in. */
export function sessionIndexAt(ms: number): number {
  const bounds = sessionDay(Math.floor(ms / DAY_MS));
  if (ms >= bounds.newYorkOpen && ms < bounds.newYorkClose) return 2;
  if (ms >= bounds.londonOpen && ms < bounds.londonClose) return 1;
  return 0;
}
