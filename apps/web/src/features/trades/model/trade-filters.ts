import {
  COACH_PATTERNS,
  type CoachPattern,
  PLAYBOOK_REVIEWS,
  TRADE_OUTCOMES,
  type PlaybookReview,
  TRADE_SORTS,
  type TradeFilterQuery,
  type TradeOutcome,
  type TradeSortField,
} from '@pipsense/contract';

/**
 * The Trades list's view as the URL keeps it (bookmarkable; the back button steps through it): dates as the trader
 * picked them (YYYY-MM-DD, local days), everything else as `get_trade_history` takes it.
 */
export interface TradeView {
  from: string;
  to: string;
  instrument: string;
  side: '' | 'long' | 'short';
  outcome: '' | TradeOutcome;
  state: '' | 'OPEN' | 'CLOSED';
  accountId: string;
  tags: string[];
  q: string;
  hasNote: '' | 'true' | 'false';
  /** 'true': the trades that broke a rule of the trader's rule sets; 'false': those that kept them. */
  ruleBreak: '' | 'true' | 'false';
  /** The trades assigned to this playbook (docs/review.md). */
  playbookId: string;
  /** followed / broke: reviewed with every rule followed or one unticked; unreviewed: assigned, not reviewed. */
  playbookReview: '' | PlaybookReview;
  /** The trades a behaviour pattern flags (docs/coach.md, Patterns). */
  pattern: '' | CoachPattern;
  sort: TradeSortField;
  order: 'asc' | 'desc';
}

/** Newest opened first: the list's order before any choice (the server's default too). */
const DEFAULT_SORT = { sort: 'openTime', order: 'desc' } as const;

export const EMPTY_VIEW: TradeView = {
  from: '',
  to: '',
  instrument: '',
  side: '',
  outcome: '',
  state: '',
  accountId: '',
  tags: [],
  q: '',
  hasNote: '',
  ruleBreak: '',
  playbookId: '',
  playbookReview: '',
  pattern: '',
  ...DEFAULT_SORT,
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | '' =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : '';
const day = (value: string | null) => (value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : '');

/** Reads the view from the URL; a value that is not one the list knows is ignored (a hand-edited link still opens). */
export function viewFromParams(params: URLSearchParams): TradeView {
  const sort = oneOf(params.get('sort'), TRADE_SORTS);
  const order = oneOf(params.get('order'), ['asc', 'desc'] as const);
  return {
    from: day(params.get('from')),
    to: day(params.get('to')),
    instrument: normaliseInstrument(params.get('instrument') ?? ''),
    side: oneOf(params.get('side'), ['long', 'short'] as const),
    outcome: oneOf(params.get('outcome'), TRADE_OUTCOMES),
    state: oneOf(params.get('state'), ['OPEN', 'CLOSED'] as const),
    accountId: (params.get('accountId') ?? '').trim(),
    tags: [...new Set(params.getAll('tag').filter(Boolean))],
    q: (params.get('q') ?? '').trim(),
    hasNote: oneOf(params.get('hasNote'), ['true', 'false'] as const),
    ruleBreak: oneOf(params.get('ruleBreak'), ['true', 'false'] as const),
    playbookId: (params.get('playbookId') ?? '').trim(),
    playbookReview: oneOf(params.get('playbookReview'), PLAYBOOK_REVIEWS),
    pattern: oneOf(params.get('pattern'), COACH_PATTERNS),
    sort: sort || DEFAULT_SORT.sort,
    order: order || (sort ? 'desc' : DEFAULT_SORT.order),
  };
}

/** The URL of a view: only what differs from the default, so a plain list has a plain address. */
export function viewToParams(view: TradeView): URLSearchParams {
  const params = new URLSearchParams();
  const put = (name: string, value: string) => {
    if (value) params.set(name, value);
  };
  put('from', view.from);
  put('to', view.to);
  put('instrument', view.instrument);
  put('side', view.side);
  put('outcome', view.outcome);
  put('state', view.state);
  put('accountId', view.accountId);
  for (const tag of view.tags) params.append('tag', tag);
  put('q', view.q);
  put('hasNote', view.hasNote);
  put('ruleBreak', view.ruleBreak);
  put('playbookId', view.playbookId);
  put('playbookReview', view.playbookReview);
  put('pattern', view.pattern);
  if (view.sort !== DEFAULT_SORT.sort || view.order !== DEFAULT_SORT.order) {
    params.set('sort', view.sort);
    params.set('order', view.order);
  }
  return params;
}

/** 'eur/usd' → 'EUR_USD': the instrument as OANDA names it. */
export function normaliseInstrument(value: string): string {
  return value
    .trim()
    .toUpperCase()
    .replace(/[/\s-]+/g, '_');
}

/** The start of a local day, or the last millisecond of it, as an ISO-8601 instant. */
const localInstant = (date: string, end: boolean) =>
  new Date(`${date}T${end ? '23:59:59.999' : '00:00:00.000'}`).toISOString();

/**
 * The filters as `get_trade_history` and `export_trades` take them: the picked days become the trader's local
 * midnight to the end of the last day, so 'to 2025-10-31' includes trades opened that evening.
 */
export function viewToQuery(view: TradeView): TradeFilterQuery {
  const query: TradeFilterQuery = { sort: view.sort, order: view.order };
  if (view.from) query.from = localInstant(view.from, false);
  if (view.to) query.to = localInstant(view.to, true);
  if (view.instrument) query.instrument = view.instrument;
  if (view.side) query.side = view.side;
  if (view.outcome) query.outcome = view.outcome;
  if (view.state) query.state = view.state;
  if (view.accountId) query.accountId = view.accountId;
  if (view.tags.length > 0) query.tag = view.tags;
  if (view.q) query.q = view.q;
  if (view.hasNote) query.hasNote = view.hasNote;
  if (view.ruleBreak) query.ruleBreak = view.ruleBreak;
  if (view.playbookId) query.playbookId = view.playbookId;
  if (view.playbookReview) query.playbookReview = view.playbookReview;
  if (view.pattern) query.pattern = view.pattern;
  return query;
}

/** How many filters narrow the list (the sort is not one), for the filter toggle's badge. */
export function activeFilterCount(view: TradeView): number {
  const { sort: _sort, order: _order, tags, ...rest } = view;
  return Object.values(rest).filter(Boolean).length + (tags.length > 0 ? 1 : 0);
}

/** A from day after the to day can only be a slip; the list says so instead of asking the server. */
export const invertedRange = (view: Pick<TradeView, 'from' | 'to'>) =>
  view.from !== '' && view.to !== '' && view.from > view.to;

/** Clicking a column header: a new column starts descending (largest / newest first), the same one flips. */
export function nextSort(view: Pick<TradeView, 'sort' | 'order'>, field: TradeSortField) {
  if (view.sort !== field) return { sort: field, order: field === 'instrument' ? 'asc' : 'desc' } as const;
  return { sort: field, order: view.order === 'desc' ? 'asc' : 'desc' } as const;
}
