import type { CoachThresholds } from '@pipsense/contract';

/**
 * The Patterns screen's filters as the URL keeps them (bookmarkable, as the trade list's): `from` and `to` as local
 * days (YYYY-MM-DD) and `accountId`.
 */
export interface PatternView {
  from: string;
  to: string;
  accountId: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (value: string | null) => (value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : '');

export function patternViewFromParams(params: URLSearchParams): PatternView {
  return {
    from: day(params.get('from')),
    to: day(params.get('to')),
    accountId: (params.get('accountId') ?? '').trim(),
  };
}

export function patternViewToParams(view: PatternView): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(view) as [string, string][]) if (value) params.set(name, value);
  return params;
}

/** The start of a local day, or its last millisecond, as an ISO-8601 instant (as the trade list sends its days). */
const localInstant = (date: string, end: boolean) =>
  new Date(`${date}T${end ? '23:59:59.999' : '00:00:00.000'}`).toISOString();

/** get_patterns' query; an inverted range is said at the filters and not sent. */
export function patternQuery(view: PatternView): { from?: string; to?: string; accountId?: string } {
  return {
    ...(view.from ? { from: localInstant(view.from, false) } : {}),
    ...(view.to ? { to: localInstant(view.to, true) } : {}),
    ...(view.accountId ? { accountId: view.accountId } : {}),
  };
}

export const invertedRange = (view: PatternView) => view.from !== '' && view.to !== '' && view.from > view.to;

/** The trade list filtered by a pattern, under the same range and account. */
export function tradeListSearch(pattern: string, view: PatternView): string {
  const params = new URLSearchParams({ pattern });
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  if (view.accountId) params.set('accountId', view.accountId);
  return params.toString();
}

/**
 * The ISO week (`2026-W47`) of a local day: the week of its Thursday, numbered from the week holding 4 January.
 */
export function isoWeekOf(date: Date): string {
  const d = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()));
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The last week that has ended: the week of the day seven days ago. */
export const lastWeek = (now: Date = new Date()) =>
  isoWeekOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 7));

const ISO_WEEK = /^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$/;
export const isIsoWeek = (value: string | null): value is string => value !== null && ISO_WEEK.test(value);

/** The ISO weekdays, Monday = 1. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Each threshold's label and meaning, with its bounds (the contract's). */
export const THRESHOLD_FIELDS: readonly {
  name: keyof CoachThresholds;
  label: string;
  help: string;
  min: number;
  max: number;
  step: number;
}[] = [
  {
    name: 'revengeMinutes',
    label: 'Revenge window (minutes)',
    help: 'A trade opened this soon after a losing trade closed, at a larger size or risk, is revenge trading.',
    min: 1,
    max: 1440,
    step: 1,
  },
  {
    name: 'overtradingPercentile',
    label: 'Overtrading percentile',
    help: 'A day with more trades than this percentile of your own active days is overtrading.',
    min: 50,
    max: 99,
    step: 1,
  },
  {
    name: 'escalationLosses',
    label: 'Losses before escalation',
    help: 'A larger trade after this many losses in a row is size escalation.',
    min: 1,
    max: 10,
    step: 1,
  },
  {
    name: 'offSessionMinTrades',
    label: 'Trades to judge a session',
    help: 'A session needs this many earlier trades before its expectancy decides what is off-session.',
    min: 3,
    max: 500,
    step: 1,
  },
  {
    name: 'holdingRatio',
    label: 'Holding ratio',
    help: 'Losers held this many times longer than winners (median hold) is holding losers.',
    min: 1,
    max: 20,
    step: 0.1,
  },
  {
    name: 'earlyExitCapturePct',
    label: 'Early exit capture (%)',
    help: 'A winner closed with less than this share of its most favourable move is an early exit.',
    min: 1,
    max: 99,
    step: 1,
  },
];
