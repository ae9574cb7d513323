import {
  platformByStored,
  sumsByCurrency,
  type AccountItem,
  type BalanceHistory,
  type BalancePoint,
  type BalanceResolution,
  type CashFlowItem,
  type ReturnPeriodName,
} from '@pipsense/contract';
import { toLocalTimes } from '../../../components/charts/local-times';
import type { PlatformName } from '../../../config/env';
import { accountIdOf } from './account-fields';

/**
 * The platform of an account by the `accountId` the API knows it by: an imported account's is its key, which starts
 * with the platform's stored name ('metatrader:Server:login'); an OANDA account's is OANDA's own id, without a colon.
 */
export function platformOfAccountId(accountId: string): PlatformName {
  const colon = accountId.indexOf(':');
  return (colon > 0 && platformByStored(accountId.slice(0, colon))?.label) || 'OANDA';
}

/**
 * The parts of the page's title, 'Primary · 101-004-27183640-001 · USD': the alias, the Account ID as the Accounts
 * table shows it (a MetaTrader account's login) and the currency. Before the account is known, its id alone (the
 * login of a MetaTrader key).
 */
export function accountMoneyTitle(accountId: string, account: AccountItem | undefined): string[] {
  if (!account) return [accountId.slice(accountId.lastIndexOf(':') + 1) || accountId];
  return [account.alias, accountIdOf(account), account.currency].filter((part): part is string => Boolean(part));
}

/** The history's equity: every point known, none known (no candle source), or some still missing. */
export function equityState(history: BalanceHistory): 'complete' | 'unknown' | 'partial' {
  if (history.equityComplete || history.points.length === 0) return 'complete';
  return history.points.some((p) => p.equity !== null) ? 'partial' : 'unknown';
}

/** A history of this many days or fewer is drawn point by point (each booking); a longer one a point a day. */
const SHORT_HISTORY_DAYS = 92;

/** The resolution the chart opens with, from the number of days the history spans (its daily points). */
export const autoResolution = (days: number): BalanceResolution => (days <= SHORT_HISTORY_DAYS ? 'trade' : 'day');

export const RESOLUTION_LABELS: Record<BalanceResolution, string> = {
  trade: 'Each booking',
  hour: 'Hourly',
  day: 'Daily',
};

interface LinePoint {
  time: number;
  /** Absent where the value is not known (the library's whitespace). */
  value?: number;
  /** The colour of the segment from this point to the next one drawn: `GAP` hides it. */
  color?: string;
}

/** The colour of a segment that would bridge a gap. */
const GAP = 'transparent';

/**
 * The chart's balance and equity lines on the trader's clock (seconds, `toLocalTimes`). A point whose equity is not
 * known is a gap in the equity line: lightweight-charts joins the known points around whitespace, so the segment
 * that would cross a gap is drawn transparent (a point's colour is that of the segment starting at it) and nothing
 * is drawn where equity is unknown. The figures are the exact decimal strings read as numbers, for drawing only.
 */
export function moneyLines(points: readonly BalancePoint[]): { balance: LinePoint[]; equity: LinePoint[] } {
  const local = toLocalTimes(points.map((point) => ({ time: Math.floor(Date.parse(point.time) / 1000), point })));
  const equity: LinePoint[] = [];
  let lastKnown: LinePoint | undefined;
  let gap = false;
  for (const { time, point } of local) {
    if (point.equity === null) {
      equity.push({ time });
      gap = true;
      continue;
    }
    if (gap && lastKnown) lastKnown.color = GAP;
    lastKnown = { time, value: Number(point.equity) };
    equity.push(lastKnown);
    gap = false;
  }
  return { balance: local.map(({ time, point }) => ({ time, value: Number(point.balance) })), equity };
}

/** The last point whose equity is known, or undefined. */
export const lastKnownEquity = (points: readonly BalancePoint[]) => points.findLast((p) => p.equity !== null);

/** Exact sums per currency of the cash flows of one type (one currency for one account; none: an empty list). */
export function cashFlowTotal(flows: readonly CashFlowItem[], type: CashFlowItem['type']) {
  return sumsByCurrency(
    flows.filter((flow) => flow.type === type).map((flow) => ({ currency: flow.currency ?? '', amount: flow.amount })),
  );
}

export const CASH_FLOW_LABELS: Record<CashFlowItem['type'], string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  credit: 'Credit',
  financing: 'Financing',
  fee: 'Fee',
  adjustment: 'Adjustment',
};

export const PERIOD_LABELS: Record<ReturnPeriodName, string> = { day: 'Day', month: 'Month', year: 'Year' };

// A period is a UTC day, month or year (docs/money.md, Returns): named in UTC, so no zone moves it to its neighbour.
const PERIOD_FORMATS: Record<ReturnPeriodName, Intl.DateTimeFormat> = {
  day: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }),
  month: new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  year: new Intl.DateTimeFormat(undefined, { year: 'numeric', timeZone: 'UTC' }),
};

/** A period by its UTC start: '3 Mar 2025', 'March 2025', '2025' (in the browser's language). */
export const periodLabel = (start: string, period: ReturnPeriodName) =>
  PERIOD_FORMATS[period].format(Date.parse(start));
