import type { CalendarDay, CurrencyAmount } from '@pipsense/contract';
import { decimalSign } from '../../../components/data/format';
import { sumDecimals, sumsByCurrency } from '@pipsense/contract';

/**
 * A P/L of one or more days: `netPL` when it is in one currency (as the server sent it: the accounts' one currency
 * or converted into the home currency), else `byCurrency`, one amount per currency, never added
 * (docs/decisions/024-currencies-never-mixed.md; `netPL` is then '0' and means nothing).
 */
export interface PlFigure {
  netPL: string;
  byCurrency: CurrencyAmount[] | null;
}

type DayMoney = Pick<CalendarDay, 'netPL' | 'currency' | 'byCurrency'>;

/** The total of some days: the exact sum when every day's P/L is in the same one currency, else per currency. */
export function totalOf(days: readonly DayMoney[]): PlFigure {
  const codes = new Set(days.filter((d) => d.netPL !== null && d.byCurrency.length > 0).map((d) => d.currency));
  if (days.every((d) => d.netPL !== null) && codes.size <= 1)
    return { netPL: sumDecimals(days.map((d) => d.netPL ?? '0')), byCurrency: null };
  return { netPL: '0', byCurrency: sumsByCurrency(days.flatMap((d) => d.byCurrency)) };
}

/** The sign of a P/L: of its amounts when they agree, else 0 (a gain in one currency and a loss in another). */
export function figureSign(figure: PlFigure): -1 | 0 | 1 {
  if (!figure.byCurrency) return decimalSign(figure.netPL);
  const signs = new Set(figure.byCurrency.map((part) => decimalSign(part.amount)).filter((sign) => sign !== 0));
  return signs.size === 1 ? [...signs][0]! : 0;
}

/** 'YYYY-MM' of a month and its neighbours, read and written without the browser's clock or zone getting in. */
export function shiftMonth(month: string, by: number): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (mon - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Today's date as 'YYYY-MM-DD' in the trader's zone (the calendar's days are the zone's days). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const daysInMonth = (month: string) => {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, mon, 0)).getUTCDate();
};

/** Monday 0 … Sunday 6 of the month's first day. */
const firstWeekday = (month: string) => (new Date(`${month}-01T00:00:00Z`).getUTCDay() + 6) % 7;

/** How strongly a day is coloured: 0 nothing traded or flat, 1–4 by its share of the month's largest day. */
export type Intensity = 0 | 1 | 2 | 3 | 4;

export interface GridDay extends PlFigure {
  date: string;
  day: number;
  trades: number;
  wins: number;
  losses: number;
  hasEntry: boolean;
  /** How many of the day's trades broke a rule of the trader's rule sets (docs/rules.md, Where breaks are shown). */
  ruleBreaks: number;
  sign: -1 | 0 | 1;
  intensity: Intensity;
}

export interface GridWeek extends PlFigure {
  /** Seven cells Monday first; null outside the month. */
  days: (GridDay | null)[];
  /** The week's trade count; its P/L (PlFigure) is the exact total of its days within the month. */
  trades: number;
}

/** Scale a day by its size against the month's largest (winning or losing) day: a quarter each step. */
export function intensityOf(netPL: string, largest: number): Intensity {
  const size = Math.abs(Number(netPL));
  if (!(size > 0) || !(largest > 0)) return 0;
  return Math.max(1, Math.min(4, Math.ceil((size / largest) * 4))) as Intensity;
}

/** The size of the largest winning or losing day: the colour scale's top. */
export function largestDay(days: readonly Pick<CalendarDay, 'netPL'>[]): number {
  return Math.max(0, ...days.map((d) => Math.abs(Number(d.netPL ?? 0))).filter(Number.isFinite));
}

/** The month's weeks (Monday first) with each day's figures, its colour step, and each week's total. */
export function monthGrid(month: string, days: readonly CalendarDay[], largest: number = largestDay(days)): GridWeek[] {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const cells: (GridDay | null)[] = Array.from({ length: firstWeekday(month) }, () => null);
  for (let day = 1; day <= daysInMonth(month); day++) {
    const date = `${month}-${String(day).padStart(2, '0')}`;
    const found = byDate.get(date);
    const figure: PlFigure = found ? totalOf([found]) : { netPL: '0', byCurrency: null };
    const sign = figureSign(figure);
    cells.push({
      date,
      day,
      ...figure,
      trades: found?.trades ?? 0,
      wins: found?.wins ?? 0,
      losses: found?.losses ?? 0,
      hasEntry: found?.hasEntry ?? false,
      ruleBreaks: found?.ruleBreaks ?? 0,
      sign,
      // Amounts of several currencies have no common size: their cell is coloured by sign alone.
      intensity: figure.byCurrency ? (sign === 0 ? 0 : 1) : intensityOf(figure.netPL, largest),
    });
  }
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: GridWeek[] = [];
  for (let at = 0; at < cells.length; at += 7) {
    const week = cells.slice(at, at + 7);
    const traded = week.filter((d): d is GridDay => d !== null);
    const inMonth = traded.flatMap((d) => (byDate.has(d.date) ? [byDate.get(d.date)!] : []));
    weeks.push({
      days: week,
      ...totalOf(inMonth),
      trades: traded.reduce((n, d) => n + d.trades, 0),
    });
  }
  return weeks;
}

/** The month's totals: exact net P/L, trades, and the days traded. */
export function monthTotals(days: readonly CalendarDay[]) {
  return {
    ...totalOf(days),
    trades: days.reduce((n, d) => n + d.trades, 0),
    tradedDays: days.filter((d) => d.trades > 0).length,
  };
}

/** CSS class of a day cell: `cal-win-3`, `cal-loss-1`, `cal-flat`. */
export function dayTone(day: Pick<GridDay, 'sign' | 'intensity' | 'trades'>): string {
  if (day.trades === 0) return 'cal-none';
  if (day.sign === 0 || day.intensity === 0) return 'cal-flat';
  return `cal-${day.sign > 0 ? 'win' : 'loss'}-${day.intensity}`;
}

export const WEEKDAY_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** 'October 2025'. */
export function monthLabel(month: string, style: 'long' | 'short' = 'long'): string {
  return new Intl.DateTimeFormat('en-US', {
    month: style,
    ...(style === 'long' ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(`${month}-01T00:00:00Z`));
}

/** 'Friday, 3 October 2025'. */
export function dayLabel(date: string): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}
