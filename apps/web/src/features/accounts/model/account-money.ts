import {
  sumsByCurrency,
  type AccountItem,
  type BalancePoint,
  type BalanceResolution,
  type CashFlowItem,
  type ReturnPeriodName,
} from '@pipsense/contract';
import { accountIdOf } from './account-fields';

/**
 * The parts of the page's title, 'Primary · 101-004-27183640-001 · USD': the alias, the Account ID as the Accounts
 * table shows it (a MetaTrader account's login) and the currency. Before the account is known, its id alone (the
 * login of a MetaTrader key).
 */
export function accountMoneyTitle(accountId: string, account: AccountItem | undefined): string[] {
  if (!account) return [accountId.slice(accountId.lastIndexOf(':') + 1) || accountId];
  return [account.alias, accountIdOf(account), account.currency].filter((part): part is string => Boolean(part));
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
