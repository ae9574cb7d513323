import { PLAYBOOK_REVIEWS, type PlaybookReview } from '@pipsense/contract';

/**
 * The overview's filters, kept in the URL so a sliced overview can be bookmarked and the back button works:
 * `range` (a preset, read relative to today so a bookmark stays "this month"), or `from`/`to` (YYYY-MM-DD) for a
 * custom range, `account`, `instrument`, `tag` (repeatable), `ruleBreak` (true / false), `playbook` and `review`
 * (followed / broke / unreviewed, docs/review.md). They are sent to dashboard/metrics as its `from`/`to` (ISO instants
 * on the open time, in the browser's zone), `accountId`, `instrument`, `tag`, `ruleBreak`, `playbookId` and
 * `playbookReview`.
 */

export const RANGE_PRESETS = ['all', 'this-week', 'this-month', 'last-30-days', 'year-to-date'] as const;
type RangePreset = (typeof RANGE_PRESETS)[number];
export type Range = RangePreset | 'custom';

export const RANGE_LABELS: Record<Range, string> = {
  all: 'All time',
  'this-week': 'This week',
  'this-month': 'This month',
  'last-30-days': 'Last 30 days',
  'year-to-date': 'Year to date',
  custom: 'Custom range',
};

export interface OverviewFilters {
  range: Range;
  /** YYYY-MM-DD, for a custom range; either end may be open. */
  from: string;
  to: string;
  accountId: string;
  instrument: string;
  tags: string[];
  /** 'true': the trades that broke a rule of the trader's rule sets; 'false': those that kept them. */
  ruleBreak: '' | 'true' | 'false';
  /** A playbook's id: only its trades. */
  playbookId: string;
  /** The trades' review against their playbook (apart from the rule tracker's `ruleBreak`). */
  playbookReview: '' | PlaybookReview;
}

export const NO_FILTERS: OverviewFilters = {
  range: 'all',
  from: '',
  to: '',
  accountId: '',
  instrument: '',
  tags: [],
  ruleBreak: '',
  playbookId: '',
  playbookReview: '',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string | null): value is string =>
  value !== null && DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

export function readFilters(params: URLSearchParams): OverviewFilters {
  const from = params.get('from');
  const to = params.get('to');
  const preset = params.get('range');
  const custom = isDay(from) || isDay(to);
  return {
    range: custom ? 'custom' : RANGE_PRESETS.includes(preset as RangePreset) ? (preset as RangePreset) : 'all',
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
    accountId: params.get('account')?.trim() ?? '',
    instrument: params.get('instrument')?.trim() ?? '',
    tags: [...new Set(params.getAll('tag').filter((t) => t.trim() !== ''))],
    ruleBreak: ruleBreakOf(params.get('ruleBreak')),
    playbookId: params.get('playbook')?.trim() ?? '',
    playbookReview: reviewOf(params.get('review')),
  };
}

const ruleBreakOf = (value: string | null): OverviewFilters['ruleBreak'] =>
  value === 'true' || value === 'false' ? value : '';

const reviewOf = (value: string | null): OverviewFilters['playbookReview'] =>
  PLAYBOOK_REVIEWS.includes(value as PlaybookReview) ? (value as PlaybookReview) : '';

/** The URL's query for the filters, leaving out what is not set; other parameters of `base` are kept. */
export function writeFilters(filters: OverviewFilters, base = new URLSearchParams()): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const key of ['range', 'from', 'to', 'account', 'instrument', 'tag', 'ruleBreak', 'playbook', 'review'])
    out.delete(key);
  if (filters.range === 'custom') {
    if (filters.from) out.set('from', filters.from);
    if (filters.to) out.set('to', filters.to);
  } else if (filters.range !== 'all') out.set('range', filters.range);
  if (filters.accountId) out.set('account', filters.accountId);
  if (filters.instrument) out.set('instrument', filters.instrument);
  for (const tag of filters.tags) out.append('tag', tag);
  if (filters.ruleBreak) out.set('ruleBreak', filters.ruleBreak);
  if (filters.playbookId) out.set('playbook', filters.playbookId);
  if (filters.playbookReview) out.set('review', filters.playbookReview);
  return out;
}

export const hasFilters = (f: OverviewFilters) =>
  f.range !== 'all' ||
  f.accountId !== '' ||
  f.instrument !== '' ||
  f.tags.length > 0 ||
  f.ruleBreak !== '' ||
  f.playbookId !== '' ||
  f.playbookReview !== '';

/** A custom range whose start is after its end: said before anything is sent. */
export const rangeProblem = (f: OverviewFilters): string | null =>
  f.range === 'custom' && f.from && f.to && f.from > f.to ? 'The start date must not be after the end date.' : null;

const localMidnight = (year: number, month: number, day: number) => new Date(year, month, day);
const fromDay = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return localMidnight(y, m - 1, d);
};
/** The last instant of a local day: `to` is inclusive. */
const endOfDay = (day: string) => new Date(fromDay(day).getTime() + 86_400_000 - 1);

/** The instants a range covers, in the browser's zone (the zone the metrics are asked in); open ends are absent. */
export function rangeBounds(f: OverviewFilters, now: Date = new Date()): { from?: string; to?: string } {
  const y = now.getFullYear();
  const m = now.getMonth();
  const d = now.getDate();
  switch (f.range) {
    case 'all':
      return {};
    case 'this-week': {
      const sinceMonday = (now.getDay() + 6) % 7;
      return { from: localMidnight(y, m, d - sinceMonday).toISOString() };
    }
    case 'this-month':
      return { from: localMidnight(y, m, 1).toISOString() };
    case 'last-30-days':
      return { from: localMidnight(y, m, d - 29).toISOString() };
    case 'year-to-date':
      return { from: localMidnight(y, 0, 1).toISOString() };
    case 'custom':
      return {
        ...(f.from ? { from: fromDay(f.from).toISOString() } : {}),
        ...(f.to ? { to: endOfDay(f.to).toISOString() } : {}),
      };
  }
}

/** dashboard/metrics query parameters for the filters (without the time zone, which every request carries). */
export function metricsParams(f: OverviewFilters, now: Date = new Date()): [string, string][] {
  const out: [string, string][] = [];
  const { from, to } = rangeBounds(f, now);
  if (from) out.push(['from', from]);
  if (to) out.push(['to', to]);
  if (f.accountId) out.push(['accountId', f.accountId]);
  if (f.instrument) out.push(['instrument', f.instrument]);
  for (const tag of f.tags) out.push(['tag', tag]);
  if (f.ruleBreak) out.push(['ruleBreak', f.ruleBreak]);
  if (f.playbookId) out.push(['playbookId', f.playbookId]);
  if (f.playbookReview) out.push(['playbookReview', f.playbookReview]);
  return out;
}
