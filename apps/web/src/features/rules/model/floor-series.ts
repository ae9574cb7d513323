import {
  compareDecimals,
  isDecimal,
  sumDecimals,
  type BalancePoint,
  type BalanceResolution,
  type DayRecord,
} from '@pipsense/contract';
import { toLocalTimes } from '../../../components/charts/local-times';
import { GAP, type LinePoint } from '../../../components/charts/money-lines';
import { formatMoney } from '../../../components/data/format';
import { lineOf } from './rule-lines';

/** The zone's offset from UTC at an instant, in seconds (the browser's unless a test names one). */
type Offset = (utcSeconds: number) => number;

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** A day's value of a floor: an exact decimal string, or null where the day has none. */
type DayValue = (day: DayRecord) => string | null;

/** The daily-loss rule's floor of the day (its last one when it moves within the day). */
const dailyLossFloor: DayValue = (day) => day.floor;

/** The max-loss rule's floor at the day's end (or now). */
const maxLossFloor: DayValue = (day) => lineOf(day.lines, 'max_loss')?.floor ?? null;

/**
 * A floor as a step line in UTC seconds: each day's value held from its reset (`start`) to the next one (`end`), the
 * last day's up to `nowMs`. The days' own instants are used, never a date plus 24 hours, so a 23- or 25-hour day on a
 * DST switch keeps its true length. A day without a value is a gap: the step before it ends at its start with a `GAP`
 * colour, so nothing is drawn until the next day with a value. Values are the exact strings read as numbers, for
 * drawing only.
 */
function stepLine(days: readonly DayRecord[], valueOf: DayValue, nowMs: number): LinePoint[] {
  const now = Math.floor(nowMs / 1000);
  const points: LinePoint[] = [];
  let held: { value: number; end: number } | null = null;
  for (const day of days) {
    const start = seconds(day.start);
    if (start >= now) break;
    const end = Math.min(seconds(day.end), now);
    const value = valueOf(day);
    if (!isDecimal(value)) {
      if (held) points.push({ time: start, value: held.value, color: GAP });
      held = null;
      continue;
    }
    held = { value: Number(value), end };
    points.push({ time: start, value: held.value });
  }
  if (held) points.push({ time: held.end, value: held.value });
  return points;
}

export interface FloorLines {
  dailyLoss: LinePoint[];
  maxLoss: LinePoint[];
  /** The profit target's level (initial balance + target) over the same span; empty without a target. */
  target: LinePoint[];
}

/**
 * The level the balance must reach: the initial balance plus the profit target's amount (exact), from the last day's
 * profit-target line; null when the set has no target.
 */
export function targetLevel(days: readonly DayRecord[], initialBalance: string): string | null {
  const line = days.length > 0 ? lineOf(days.at(-1)!.lines, 'profit_target') : undefined;
  return line?.unit === 'money' && isDecimal(line.limit) ? sumDecimals([initialBalance, line.limit]) : null;
}

/**
 * The floors and the target of a rule set's days as step lines on the trader's clock (`toLocalTimes`, as the balance
 * and equity lines are), from the first day's reset to now.
 */
export function floorLines(
  days: readonly DayRecord[],
  initialBalance: string,
  nowMs: number,
  offset?: Offset,
): FloorLines {
  const local = (points: LinePoint[]) => toLocalTimes(points, offset);
  const target = targetLevel(days, initialBalance);
  const span = stepLine(days, () => target, nowMs);
  return {
    dailyLoss: local(stepLine(days, dailyLossFloor, nowMs)),
    maxLoss: local(stepLine(days, maxLossFloor, nowMs)),
    // A level that never moves: its first and last point (or none).
    target: local(span.length > 0 ? [span[0]!, span.at(-1)!] : []),
  };
}

/** A set of three months or less is drawn an hour at a time (intraday dips near a floor show); a longer one a day. */
const HOURLY_DAYS = 92;

export const chartResolution = (startTime: string, nowMs: number): BalanceResolution =>
  nowMs - Date.parse(startTime) <= HOURLY_DAYS * 86_400_000 ? 'hour' : 'day';

/** Whether any point of the history has its equity: none (closed P/L only) draws the balance alone. */
export const equityKnown = (points: readonly BalancePoint[]) => points.some((p) => p.equity !== null);

/**
 * The chart in words, for screen readers (and for anyone): the balance and equity now, the lowest equity of a day,
 * today's floors and the target, each exact (format.ts).
 */
export function chartSummary(
  days: readonly DayRecord[],
  points: readonly BalancePoint[],
  initialBalance: string,
  currency: string,
): string {
  const money = (value: string) => formatMoney(value, currency);
  const parts: string[] = [];
  const last = points.at(-1);
  if (last) {
    parts.push(`Balance ${money(last.balance)}`);
    parts.push(last.equity === null ? 'equity unknown (closed P/L only)' : `equity ${money(last.equity)}`);
  }
  let lowest: DayRecord | undefined;
  for (const day of days)
    if (isDecimal(day.lowestEquity) && (!lowest || compareDecimals(day.lowestEquity, lowest.lowestEquity!) < 0))
      lowest = day;
  if (lowest) parts.push(`lowest equity ${money(lowest.lowestEquity!)} on ${lowest.date}`);
  const today = days.at(-1);
  if (today && isDecimal(today.floor)) parts.push(`daily loss floor today ${money(today.floor)}`);
  const maxFloor = today ? maxLossFloor(today) : null;
  if (isDecimal(maxFloor)) parts.push(`maximum loss floor ${money(maxFloor)}`);
  const target = targetLevel(days, initialBalance);
  if (target) parts.push(`profit target ${money(target)}`);
  if (parts.length === 0) return '';
  const text = parts.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
