import { platformByQuery, type Mode, type PlatformQuery, type PlaybookReview } from '@pipsense/contract';
import { compareDecimals, isDecimal, negateDecimal, signOf } from '../../domain/decimal';

/**
 * Which trades: the one answer to that question for every reader of trades (the trade list and its CSV export, a
 * journal day and the calendar, the Overview, the assistant's tools). Compiled to SQL by `selection-sql.ts` and
 * tested one trade at a time by `selectionMatcher` below; `selection.db.test.ts` proves the two agree.
 *
 * The readers differ in meaning, not only in shape, and each says its meaning here (decision record
 * docs/decisions/021-one-read-side-for-trades.md):
 * - `time.basis`: 'open' bounds the open time (the list, the export, the Overview); 'close' bounds a closed trade's
 *   close time and a trade still open by its open time (it has no close yet: the assistant, a journal day).
 * - `time.ends`: 'both' includes both ends, `to` to the millisecond (stored times carry nanoseconds); 'from' is
 *   [from, to).
 * - `outcome`: `of: 'realized'` looks at closed trades only, by realized P/L (the list's win / loss / breakeven);
 *   `of: 'total'` adds unrealized P/L and takes open trades too (the assistant's winners and losers).
 *
 * A later reader adds its fields here, with their SQL in selection-sql.ts, their test in `selectionMatcher` and their
 * values in the generator of selection.db.test.ts, so that the two readings keep agreeing.
 */
export interface TradeSelection {
  /** One platform's trades; every platform's without one. */
  platform?: PlatformQuery | undefined;
  mode?: Mode | undefined;
  /**
   * The account as the API names it: the broker's login (OANDA's account id) or the account key (what MetaTrader
   * rows show as their accountId). `accountKeysNamed` (trading's account-key.ts) is the one rule that finds it.
   */
  account?: string | undefined;
  /** Exact instrument name as stored, e.g. EUR_USD. */
  instrument?: string | undefined;
  /** By the sign of the initial units. */
  side?: 'long' | 'short' | undefined;
  /** 'open': any state but CLOSED. */
  state?: 'open' | 'closed' | undefined;
  time?: TimeBounds | undefined;
  outcome?: OutcomeTest | undefined;
  /** Trades carrying any of these journal tag ids. */
  tags?: readonly string[] | undefined;
  /** The trade's note contains this text (ASCII letters in any case). */
  noteText?: string | undefined;
  /** true: a non-empty note; false: none or an empty one. */
  hasNote?: boolean | undefined;
  /** true: with a stop-loss (take-profit) order on the trade; false: without one. */
  stopLoss?: boolean | undefined;
  takeProfit?: boolean | undefined;
  /**
   * `broke: true`: only the trades whose key (`<account key> <trade id>`, trade-list.repository.ts tradeKey) is in
   * `keys`, the trades that broke a trade-level rule of the user's rule sets (docs/rules.md, Where breaks are shown);
   * `broke: false`: only the others. The reader asks the rules for the keys (trade-views.ts `ruleBreaks`).
   */
  ruleBreak?: { broke: boolean; keys: ReadonlySet<string> } | undefined;
  /**
   * Only the trades whose key (as `ruleBreak.keys`) is in `keys`: the trades a behaviour pattern flags (docs/coach.md,
   * Patterns). The reader asks the coach for the keys (trade-views.ts `patterns`).
   */
  pattern?: { keys: ReadonlySet<string> } | undefined;
  /** Only the trades assigned to this playbook (the playbooks' `trade_reviews`; docs/review.md). */
  playbookId?: string | undefined;
  /**
   * Among the assigned trades (of `playbookId` when given): 'followed' reviewed with every rule followed, 'broke'
   * reviewed with one not followed, 'unreviewed' assigned and not reviewed yet.
   */
  playbookReview?: PlaybookReview | undefined;
}

/** A trade's assignment to a playbook and its review, as the matcher reads it. */
export interface ReviewFact {
  playbookId: string;
  reviewed: boolean;
  /** null while not reviewed. */
  followedAll: boolean | null;
}

/** The review state a `playbookReview` filter names, of an assigned trade. */
const reviewStateOf = (r: ReviewFact): PlaybookReview =>
  !r.reviewed ? 'unreviewed' : r.followedAll ? 'followed' : 'broke';

export interface TimeBounds {
  basis: 'open' | 'close';
  ends: 'both' | 'from';
  /** ISO-8601 instants; either may be left out. */
  from?: string | undefined;
  to?: string | undefined;
}

type OutcomeTest = { of: 'realized'; is: 'win' | 'loss' | 'breakeven' } | { of: 'total'; is: 'winners' | 'losers' };

/** A trade as the in-memory matcher reads it. Times in epoch milliseconds (a stored time's nanoseconds cut off). */
export interface SelectableTrade {
  accountKey: string;
  /** PLATFORM_TABLE's stored value. */
  platform: string;
  mode: string;
  instrument: string;
  initialUnits: string;
  state: string;
  openTime: number;
  closeTime: number | null;
  realizedPL: string;
  unrealizedPL: string | null;
  stopLossPrice: string | null;
  takeProfitPrice: string | null;
}

/**
 * How the matcher reads a trade of some shape `T`: one function per field, given the trade and its index in the
 * collection tested (the Overview's books keep account keys and modes in arrays beside trades of the engine's shape;
 * the assistant tests the API's trade items). Reading through functions means no object is built per trade.
 */
export interface TradeFieldReaders<T> {
  accountKey: (t: T, i: number) => string;
  /** PLATFORM_TABLE's stored value. */
  platform: (t: T, i: number) => string;
  mode: (t: T, i: number) => string;
  instrument: (t: T) => string;
  /** Initial units below zero. */
  short: (t: T) => boolean;
  state: (t: T) => string;
  /** Epoch milliseconds. */
  openTime: (t: T) => number;
  closeTime: (t: T) => number | null;
  realizedPL: (t: T) => string;
  unrealizedPL: (t: T) => string | null;
  hasStopLoss: (t: T) => boolean;
  hasTakeProfit: (t: T) => boolean;
}

/** The readers of a `SelectableTrade`: its own fields. */
const selectableFields: TradeFieldReaders<SelectableTrade> = {
  accountKey: (t) => t.accountKey,
  platform: (t) => t.platform,
  mode: (t) => t.mode,
  instrument: (t) => t.instrument,
  short: (t) => t.initialUnits.startsWith('-'),
  state: (t) => t.state,
  openTime: (t) => t.openTime,
  closeTime: (t) => t.closeTime,
  realizedPL: (t) => t.realizedPL,
  unrealizedPL: (t) => t.unrealizedPL,
  hasStopLoss: (t) => t.stopLossPrice !== null,
  hasTakeProfit: (t) => t.takeProfitPrice !== null,
};

/** What the matcher needs beside the trade when the selection asks for it. */
export interface SelectionFacts<T = SelectableTrade> {
  /** The keys `selection.account` names (trading's accountKeysNamed). */
  accountKeys?: ReadonlySet<string> | undefined;
  /** The tag ids on the trade. */
  tagIds?: (trade: T, i: number) => readonly string[] | undefined;
  /** The trade's note; null without one. */
  note?: (trade: T, i: number) => string | null | undefined;
  /** The trade's key as `ruleBreak.keys` and `pattern.keys` hold it (`<account key> <trade id>`). */
  tradeKey?: (trade: T, i: number) => string;
  /** The trade's playbook and review; undefined when it is on no playbook. */
  review?: (trade: T, i: number) => ReviewFact | undefined;
}

/** Epoch milliseconds of an ISO instant; undefined for none or an unreadable one. */
const msOf = (iso: string | undefined): number | undefined => {
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * The bounds as epoch milliseconds (-Infinity and Infinity for a bound left out or unreadable), and whether `hi` is
 * included; undefined when neither bound is given.
 */
export function timeRange(time: TimeBounds): { lo: number; hi: number; toIncluded: boolean } | undefined {
  const from = msOf(time.from);
  const to = msOf(time.to);
  if (from === undefined && to === undefined) return undefined;
  return { lo: from ?? -Infinity, hi: to ?? Infinity, toIncluded: time.ends === 'both' };
}

/** Whether the selection reads the journal's notes (a join the SQL makes only then). */
export const readsNotes = (s: TradeSelection): boolean => Boolean(s.noteText) || s.hasNote !== undefined;

/** Whether the selection reads the playbooks' reviews (a filter answered through `trade_reviews`). */
export const readsReviews = (s: TradeSelection): boolean =>
  s.playbookId !== undefined || s.playbookReview !== undefined;

/** The selection as a test of one `SelectableTrade` (the in-memory twin of selection-sql.ts). */
export function selectionMatcher(s: TradeSelection, facts: SelectionFacts = {}): (t: SelectableTrade) => boolean {
  const matches = tradeMatcher(s, selectableFields, facts);
  return (t) => matches(t, 0);
}

/**
 * The selection as a test of one trade read by `read`, built once for many trades (the Overview tests a whole book
 * with it). Only the parts the selection sets are tested.
 */
export function tradeMatcher<T>(
  s: TradeSelection,
  read: TradeFieldReaders<T>,
  facts: SelectionFacts<T> = {},
): (t: T, i: number) => boolean {
  type Test = (t: T, i: number) => boolean;
  const tests: Test[] = [];
  const isClosed = (t: T) => read.state(t) === 'CLOSED';
  // Each test calls its reader and compares with a value captured here (no property read per trade).
  if (s.platform) {
    const stored = platformByQuery(s.platform).stored;
    const platformOf = read.platform;
    tests.push((t, i) => platformOf(t, i) === stored);
  }
  if (s.mode) {
    const mode = s.mode;
    const modeOf = read.mode;
    tests.push((t, i) => modeOf(t, i) === mode);
  }
  if (s.account) {
    const keys = facts.accountKeys ?? new Set<string>();
    const keyOf = read.accountKey;
    tests.push((t, i) => keys.has(keyOf(t, i)));
  }
  if (s.instrument) {
    const instrument = s.instrument;
    const instrumentOf = read.instrument;
    tests.push((t) => instrumentOf(t) === instrument);
  }
  if (s.side) {
    const short = s.side === 'short';
    tests.push((t) => read.short(t) === short);
  }
  if (s.state === 'closed') tests.push(isClosed);
  if (s.state === 'open') tests.push((t) => !isClosed(t));
  const time = s.time;
  const range = time ? timeRange(time) : undefined;
  if (time && range) {
    const { lo, hi } = range;
    const within = range.toIncluded ? (ms: number) => ms >= lo && ms <= hi : (ms: number) => ms >= lo && ms < hi;
    if (time.basis === 'open') tests.push((t) => within(read.openTime(t)));
    else
      tests.push((t) => {
        if (!isClosed(t)) return within(read.openTime(t));
        const closed = read.closeTime(t);
        return closed !== null && within(closed);
      });
  }
  const outcome = s.outcome;
  if (outcome?.of === 'realized') {
    const sign = outcome.is === 'win' ? 1 : outcome.is === 'loss' ? -1 : 0;
    tests.push((t) => isClosed(t) && signOf(read.realizedPL(t)) === sign);
  }
  if (outcome?.of === 'total') {
    // Realized against minus unrealized, as the SQL compares them: exact, also beyond the money's four places.
    const sign = outcome.is === 'winners' ? 1 : -1;
    const minusUnrealized = (t: T) => {
      const unrealized = read.unrealizedPL(t);
      return isDecimal(unrealized) ? negateDecimal(unrealized) : '0';
    };
    tests.push((t) => Math.sign(compareDecimals(read.realizedPL(t), minusUnrealized(t))) === sign);
  }
  if (s.tags && s.tags.length > 0) {
    const wanted = new Set(s.tags);
    tests.push((t, i) => (facts.tagIds?.(t, i) ?? []).some((id) => wanted.has(id)));
  }
  if (s.noteText) {
    const text = asciiLower(s.noteText);
    tests.push((t, i) => asciiLower(facts.note?.(t, i) ?? '').includes(text));
  }
  if (s.hasNote !== undefined) {
    const want = s.hasNote;
    tests.push((t, i) => ((facts.note?.(t, i) ?? '') !== '') === want);
  }
  if (s.stopLoss !== undefined) tests.push((t) => read.hasStopLoss(t) === s.stopLoss);
  if (s.takeProfit !== undefined) tests.push((t) => read.hasTakeProfit(t) === s.takeProfit);
  if (s.ruleBreak) {
    const { broke, keys } = s.ruleBreak;
    const keyOf = facts.tradeKey;
    tests.push((t, i) => (keyOf !== undefined && keys.has(keyOf(t, i))) === broke);
  }
  if (s.pattern) {
    const { keys } = s.pattern;
    const keyOf = facts.tradeKey;
    tests.push((t, i) => keyOf !== undefined && keys.has(keyOf(t, i)));
  }
  if (readsReviews(s)) {
    const { playbookId, playbookReview } = s;
    const reviewOf = facts.review;
    tests.push((t, i) => {
      const review = reviewOf?.(t, i);
      if (!review) return false;
      if (playbookId !== undefined && review.playbookId !== playbookId) return false;
      return playbookReview === undefined || reviewStateOf(review) === playbookReview;
    });
  }
  // The Overview tests whole books with this: one or two tests are called directly, more in an indexed loop.
  const [first, second] = tests;
  if (first === undefined) return () => true;
  if (second === undefined) return first;
  if (tests.length === 2) return (t, i) => first(t, i) && second(t, i);
  return (t, i) => {
    for (let k = 0; k < tests.length; k++) if (!tests[k]!(t, i)) return false;
    return true;
  };
}

/** Lower case as SQLite's lower() makes it (ASCII letters only), which PostgreSQL agrees with on ASCII text. */
const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (c) => c.toLowerCase());
