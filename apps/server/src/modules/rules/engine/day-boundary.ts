import { DAY_MS, MINUTE_MS, isoDate, localDayOf, zoneClock } from '../../../domain/calendar';

/**
 * The day of a rule set (docs/reference/prop-firms.md §8.2): day d = [R_d, R_{d+1}), where R_d is the instant the
 * wall clock in `zone` reads `resetTime` on the local date d. R_d comes from the tz database (domain/calendar.ts,
 * through Intl), never from a fixed offset: on a switch date the day is 23 or 25 hours long.
 */
export class DayBoundary {
  readonly zone: string;
  readonly resetTime: string;
  private readonly resetMinutes: number;
  private readonly resets = new Map<number, number>();

  constructor(resetTime: string, zone: string) {
    const match = /^(\d{2}):(\d{2})$/.exec(resetTime);
    if (!match) throw new RangeError(`resetTime must be "HH:MM": ${resetTime}`);
    this.resetMinutes = Number(match[1]) * 60 + Number(match[2]);
    this.resetTime = resetTime;
    this.zone = zone;
    zoneClock(zone); // throws RangeError for an unknown zone
  }

  /**
   * R_d in epoch ms, for d in days since 1970-01-01 (local dates). A reset time that repeats (an autumn hour) is
   * its first occurrence; one that does not exist (a spring gap) is the switch itself, the first instant the clock
   * reads later than it.
   */
  resetOf(day: number): number {
    let reset = this.resets.get(day);
    if (reset === undefined) {
      reset = this.compute(day);
      this.resets.set(day, reset);
    }
    return reset;
  }

  private compute(day: number): number {
    const clock = zoneClock(this.zone);
    const wall = day * DAY_MS + this.resetMinutes * MINUTE_MS;
    // A zone changes its offset at most once a week (calendar.ts): the offsets a day either side are the candidates.
    const before = clock.offsetAt(wall - DAY_MS);
    const after = clock.offsetAt(wall + DAY_MS);
    const valid = [before, after].map((offset) => wall - offset).filter((at) => wall - clock.offsetAt(at) === at);
    if (valid.length > 0) return Math.min(...valid);
    // The spring gap: the clock jumps over the reset time; the day starts at the jump, found to the second.
    let lo = wall - before;
    let hi = wall - after;
    if (hi < lo) [lo, hi] = [hi, lo];
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (clock.offsetAt(mid) === before) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  /** The day (local date number) holding an instant: R_d ≤ t < R_{d+1}. */
  dayOf(ms: number): number {
    let day = localDayOf(zoneClock(this.zone).local(ms));
    while (ms < this.resetOf(day)) day--;
    while (ms >= this.resetOf(day + 1)) day++;
    return day;
  }

  /** 'YYYY-MM-DD' of a day. */
  dateOf(day: number): string {
    return isoDate(day);
  }
}
