/**
 * Calendar periods ("today", "last week", "last 30 days", explicit dates) as UTC instants, counted in
 * the trader's time zone: "today" for a trader in Tokyo starts nine hours before midnight UTC.
 * Weeks start on Monday (ISO 8601). Calendar arithmetic in zones: domain/calendar.ts.
 */
import { addDays, localDate, startOfDay, type CalendarDay } from '../../../domain/calendar';

export const PERIOD_KINDS = [
  'today',
  'yesterday',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'last_n_days',
  'weekday',
  'range',
  'all',
] as const;
type PeriodKind = (typeof PERIOD_KINDS)[number];

export interface PeriodSpec {
  kind: PeriodKind;
  /** last_n_days: how many calendar days, today included. */
  days?: number | undefined;
  /** weekday: the ISO weekday (Monday 1 … Sunday 7); the latest such day, today included. */
  weekday?: number | undefined;
  /** range: first day, YYYY-MM-DD. */
  from?: string | undefined;
  /** range: last day (inclusive), YYYY-MM-DD. */
  to?: string | undefined;
}

export interface ResolvedPeriod {
  kind: PeriodKind;
  /** For people: 'today (2025-03-14)', 'last month (February 2025)'. */
  label: string;
  /** Inclusive start, or null for no bound. */
  from: Date | null;
  /** Exclusive end, or null for no bound. */
  to: Date | null;
  timeZone: string;
}

export const MAX_PERIOD_DAYS = 3660;

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (day: CalendarDay) => `${day.y}-${pad(day.m)}-${pad(day.d)}`;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const monthName = (y: number, m: number) => {
  const t = new Date(Date.UTC(y, m - 1, 1));
  return `${MONTHS[t.getUTCMonth()]} ${t.getUTCFullYear()}`;
};

function parseDay(text: string, what: string): CalendarDay {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) throw new PeriodError(`${what} must be a date like 2025-03-14`);
  const day = { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) };
  const check = new Date(Date.UTC(day.y, day.m - 1, day.d));
  if (check.getUTCMonth() !== day.m - 1 || check.getUTCDate() !== day.d)
    throw new PeriodError(`${what} is not a real date: ${text}`);
  return day;
}

/** A period the caller asked for cannot be built (bad date, too many days); its message says why. */
export class PeriodError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PeriodError';
  }
}

export function resolvePeriod(spec: PeriodSpec, now: Date, timeZone = 'UTC'): ResolvedPeriod {
  const today = localDate(now.getTime(), timeZone);
  const start = (day: CalendarDay) => startOfDay(day, timeZone);
  const make = (label: string, from: CalendarDay | null, toExclusive: CalendarDay | null): ResolvedPeriod => ({
    kind: spec.kind,
    label,
    from: from ? start(from) : null,
    to: toExclusive ? start(toExclusive) : null,
    timeZone,
  });
  // ISO weekday: Monday 1 … Sunday 7.
  const weekday = ((new Date(Date.UTC(today.y, today.m - 1, today.d)).getUTCDay() + 6) % 7) + 1;
  const monday = addDays(today, 1 - weekday);

  switch (spec.kind) {
    case 'today':
      return make(`today (${isoDay(today)})`, today, addDays(today, 1));
    case 'yesterday': {
      const y = addDays(today, -1);
      return make(`yesterday (${isoDay(y)})`, y, today);
    }
    case 'this_week':
      return make(`this week (since Monday ${isoDay(monday)})`, monday, addDays(monday, 7));
    case 'last_week': {
      const from = addDays(monday, -7);
      return make(`last week (${isoDay(from)} to ${isoDay(addDays(monday, -1))})`, from, monday);
    }
    case 'this_month':
      return make(
        `this month (${monthName(today.y, today.m)})`,
        { y: today.y, m: today.m, d: 1 },
        { y: today.y, m: today.m + 1, d: 1 },
      );
    case 'last_month':
      return make(
        `last month (${monthName(today.y, today.m - 1)})`,
        { y: today.y, m: today.m - 1, d: 1 },
        { y: today.y, m: today.m, d: 1 },
      );
    case 'last_n_days': {
      const days = spec.days ?? 7;
      if (!Number.isInteger(days) || days < 1 || days > MAX_PERIOD_DAYS)
        throw new PeriodError(`days must be a whole number from 1 to ${MAX_PERIOD_DAYS}`);
      const from = addDays(today, 1 - days);
      const label =
        days === 1 ? `the last day (${isoDay(today)})` : `the last ${days} days (${isoDay(from)} to ${isoDay(today)})`;
      return make(label, from, addDays(today, 1));
    }
    case 'weekday': {
      const wanted = spec.weekday ?? weekday;
      if (!Number.isInteger(wanted) || wanted < 1 || wanted > 7)
        throw new PeriodError('weekday must be a whole number from 1 (Monday) to 7 (Sunday)');
      const day = addDays(today, -((weekday - wanted + 7) % 7));
      return make(`${WEEKDAYS[wanted - 1]} ${isoDay(day)}`, day, addDays(day, 1));
    }
    case 'range': {
      if (!spec.from && !spec.to) throw new PeriodError('a date range needs from, to or both (YYYY-MM-DD)');
      const from = spec.from ? parseDay(spec.from, 'from') : null;
      const to = spec.to ? parseDay(spec.to, 'to') : null;
      if (from && to && isoDay(from) > isoDay(to)) throw new PeriodError('from must not be later than to');
      const label =
        from && to
          ? isoDay(from) === isoDay(to)
            ? isoDay(from)
            : `${isoDay(from)} to ${isoDay(to)}`
          : from
            ? `since ${isoDay(from)}`
            : `until ${isoDay(to!)}`;
      return make(label, from, to ? addDays(to, 1) : null);
    }
    case 'all':
      return { kind: 'all', label: 'all time', from: null, to: null, timeZone };
  }
}

/** Whether an RFC 3339 instant lies in the period. */
export function inPeriod(period: ResolvedPeriod, time: string | null): boolean {
  if (period.from === null && period.to === null) return true;
  if (time === null) return false;
  const t = Date.parse(time);
  if (Number.isNaN(t)) return false;
  return (period.from === null || t >= period.from.getTime()) && (period.to === null || t < period.to.getTime());
}
