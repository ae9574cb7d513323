import {
  COACH_PATTERNS,
  type CoachPattern,
  type CoachThresholds,
  type PatternResult,
  type PlatformQuery,
} from '@pipsense/contract';
import {
  moneyFigure,
  noDailyRates,
  prepareConversion,
  type Conversion,
  type DailyRates,
  type DatedAmount,
  type MoneyFigure,
  utcDay,
} from '../../domain/currency-totals';
import { subtractDecimals } from '../../domain/decimal';
import { DAY_MS } from '../../domain/calendar';
import { formatMinorUnits } from '../../domain/money';
import { roundRatio } from '../../domain/rounding';
import { detectPatternColumns, patternDefinition } from '../analytics';
import { apiAccountId } from '../trading';
import { tradeMatcher, type PatternKeys, type PatternRow, type TradeFieldReaders } from '../trade-views';
import { createBookBuilder, joinBooks, type CodedColumn, type PatternBook } from './pattern-book';
import type { PartStatement, PatternBookThreads } from './pattern-book-threads';

/**
 * The coach's behaviour patterns (docs/coach.md, Patterns): the detectors of analytics' engine (engine/METRICS.md,
 * Behaviour patterns) over the trader's whole book, with their cost in a range. Flags are a property of the trade:
 * every pattern is judged over the whole history of every account and platform (a revenge trade may follow a loss on
 * another account), and a range, an account or a platform only chooses which flagged trades are shown and costed. So
 * the screen, the trade list's filter and the trade modal agree.
 */
export interface CoachPatternsDeps {
  /** Every trade of the user, oldest first, as the read side's pattern rows (trade-views book-rows.ts). */
  rows: (userId: string, add: (row: PatternRow) => void) => Promise<void>;
  /** The keys of the user's accounts an API account id names (trading's rule). */
  accountKeysNamed: (userId: string, accountId: string) => Promise<Set<string>>;
  /** The currency of each account by key ('' when not known). */
  accountCurrencies: (userId: string) => Promise<Map<string, string>>;
  /** Stop levels of each trade's stop-loss orders in the order placed, by `<account key> <trade id>` (trading). */
  stopLevels: (userId: string) => Promise<Map<string, string[]>>;
  thresholds: (userId: string) => Promise<CoachThresholds>;
  /** The trader's IANA zone (settings); UTC when none is set. */
  timeZoneOf: (userId: string) => Promise<string | null>;
  homeCurrencyOf: (userId: string) => Promise<string>;
  ratesFor?: ((userId: string) => DailyRates) | undefined;
  /**
   * The read of `rows` cut into `parts` statements for the threads (trade-views book-rows.ts `patternRowParts`); null
   * when it is read on this thread (PostgreSQL, a book of fewer than `from` trades).
   */
  rowParts?: ((userId: string, parts: number, from: number) => Promise<PartStatement[] | null>) | undefined;
  /** The threads that build the parts; without them every book is read on this thread. */
  threads?: PatternBookThreads | undefined;
  /** A thread's build failed (the thread stopped, a statement failed there): the book was read on this thread. */
  threadFailed?: ((error: unknown) => void) | undefined;
  /** Books of at least this many trades are built on the threads (THREADED_FROM unless given: tests). */
  threadedFrom?: number | undefined;
  /** The user's stored trades' version (the data counter of db/data-versions.ts): the analysis is kept per version. */
  dataVersionOf: (userId: string) => Promise<string>;
}

export interface PatternsRequest {
  from?: string | undefined;
  to?: string | undefined;
  accountId?: string | undefined;
  platform?: PlatformQuery | undefined;
}

interface Analysis {
  version: string;
  thresholds: CoachThresholds;
  book: PatternBook;
  readers: TradeFieldReaders<number>;
  flags: Record<CoachPattern, number[]>;
  /** Each pattern's flagged trades by `<account key> <trade id>`, made on the first ask (the list's filter, the modal). */
  keys: Map<CoachPattern, Set<string>> | null;
  /** The API account id of each account key (trading's rule, once per account, not once per flagged trade). */
  apiIds: Map<string, string>;
}

/** Users whose analysis this instance keeps (the trade list's filter asks once per page). */
const KEPT_USERS = 32;

/** Books of at least this many trades are built in parts on threads when the read side can cut them (SQLite). */
const THREADED_FROM = 20_000;

/** The text of trade `i` in a coded column. */
const textOf = (column: CodedColumn, i: number) => column.names[column.codes[i]!]!;

/**
 * The whole book, oldest first: in parts on the threads when the read side cuts it (a large book on SQLite), else
 * read on this thread. A thread that fails costs speed, not the answer: the book is then read on this thread.
 *
 * Each part is its own statement, so a write that lands between them could be half seen. Every write of trades moves
 * the data version in its transaction: the parts are one snapshot when the version read before them (`version`) is
 * still the version after them, and otherwise the book is read again in one statement.
 */
async function readBook(
  deps: CoachPatternsDeps,
  userId: string,
  version: string,
  currencyOf: Map<string, string>,
  stops: Map<string, string[]>,
): Promise<PatternBook> {
  const threads = deps.threads;
  const parts = threads ? await deps.rowParts?.(userId, threads.count, deps.threadedFrom ?? THREADED_FROM) : null;
  if (threads && parts) {
    try {
      const book = joinBooks(await Promise.all(parts.map((part) => threads.build(part, currencyOf, stops))));
      if ((await deps.dataVersionOf(userId)) === version) return book;
    } catch (error) {
      deps.threadFailed?.(error);
    }
  }
  const builder = createBookBuilder(currencyOf, stops);
  await deps.rows(userId, builder.add);
  return builder.finish();
}

/** The range filter's readers of a kept trade by its index. */
function readersOf(book: PatternBook): TradeFieldReaders<number> {
  return {
    accountKey: (i) => textOf(book.accountKey, i),
    platform: (i) => textOf(book.platform, i),
    mode: (i) => textOf(book.mode, i),
    instrument: (i) => book.instruments[book.columns.instrument[i]!]!,
    short: (i) => book.short[i] === 1,
    state: (i) => textOf(book.state, i),
    openTime: (i) => book.columns.openTime[i]!,
    closeTime: (i) => (Number.isNaN(book.columns.closeTime[i]!) ? null : book.columns.closeTime[i]!),
    realizedPL: (i) => plText(book, i),
    unrealizedPL: () => null,
    hasStopLoss: () => false,
    hasTakeProfit: () => false,
  };
}

/** A closed trade's P/L as a decimal of the same value and decimals as its stored text (what sums read of it). */
const plText = (book: PatternBook, i: number): string =>
  book.irregularPL.get(i) ?? formatMinorUnits(book.columns.plMinor[i]!, book.plScale[i]);

/** What a closed trade books (its P/L in its currency on its UTC close day), as the playbook report books it. */
const bookedOf = (book: PatternBook, i: number): DatedAmount => ({
  currency: book.currencies[book.columns.currency[i]!]!,
  amount: plText(book, i),
  day: utcDay(book.bookedDay[i]! * DAY_MS),
});

/**
 * moneyFigure of closed trades (domain/currency-totals.ts), the same figure: in one currency or listed, the sums of
 * each currency are taken in exact minor units and written with the decimals of its most precise amount, as
 * sumDecimals writes them; converted, or with an amount minor units do not hold exactly, through moneyFigure.
 */
function figureOf(conversion: Conversion, book: PatternBook, closed: ArrayLike<number>, count: number): MoneyFigure {
  const { currency, plMinor } = book.columns;
  const sums = new Float64Array(book.currencies.length);
  const scales = new Int8Array(book.currencies.length).fill(-1);
  let exact = conversion.mode !== 'converted';
  for (let k = 0; k < count && exact; k++) {
    const i = closed[k]!;
    const c = currency[i]!;
    const scale = book.plScale[i]!;
    if (scale < 0) exact = false;
    sums[c]! += plMinor[i]!;
    if (scale > scales[c]!) scales[c] = scale;
  }
  if (!exact || sums.some((s) => !Number.isSafeInteger(s))) {
    const items: DatedAmount[] = [];
    for (let k = 0; k < count; k++) items.push(bookedOf(book, closed[k]!));
    return moneyFigure(conversion, items);
  }
  const byCurrency = book.currencies
    .map((name, c) => ({ name, c }))
    .filter(({ c }) => scales[c]! >= 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, c }) => ({ currency: name, amount: formatMinorUnits(sums[c]!, scales[c]) }));
  if (conversion.mode === 'single') {
    const only = byCurrency[0] ?? { currency: conversion.currencies[0] ?? conversion.home, amount: '0' };
    return { mode: 'single', currency: only.currency, amount: only.amount };
  }
  return { mode: 'listed', byCurrency };
}

/**
 * The figure of the trades outside a part: the whole figure less the part's, exact (a sum of 100,000 amounts is
 * taken once, not once per pattern). `currencies` are those the outside trades are booked in.
 */
function remainder(whole: MoneyFigure, part: MoneyFigure | null, currencies: readonly string[]): MoneyFigure {
  if (part === null) return whole;
  if (whole.mode === 'single' && part.mode === 'single')
    return { ...whole, amount: subtractDecimals(whole.amount, part.amount) };
  if (whole.mode === 'converted' && part.mode === 'converted')
    return { ...whole, amount: subtractDecimals(whole.amount, part.amount), from: [...currencies] };
  if (whole.mode === 'listed' && part.mode === 'listed') {
    const partOf = new Map(part.byCurrency.map((c) => [c.currency, c.amount]));
    return {
      mode: 'listed',
      byCurrency: whole.byCurrency
        .filter((c) => currencies.includes(c.currency))
        .map((c) => ({ currency: c.currency, amount: subtractDecimals(c.amount, partOf.get(c.currency) ?? '0') })),
    };
  }
  throw new Error('figures of one view are of one currency mode');
}

function keysOf(analysis: Analysis): Map<CoachPattern, Set<string>> {
  const { book, flags } = analysis;
  analysis.keys ??= new Map(
    COACH_PATTERNS.map((p) => [p, new Set(flags[p].map((i) => `${textOf(book.accountKey, i)} ${book.tradeId[i]!}`))]),
  );
  return analysis.keys;
}

function apiIdOf(analysis: Analysis, accountKey: string): string {
  let id = analysis.apiIds.get(accountKey);
  if (id === undefined) analysis.apiIds.set(accountKey, (id = apiAccountId(accountKey)));
  return id;
}

/** Mean R of `sum` hundredths over `count` trades, 2 decimals; null when none. */
const meanR = (sum: number, count: number) => (count > 0 ? roundRatio(sum / 100 / count) : null);

export function createCoachPatterns(deps: CoachPatternsDeps) {
  const kept = new Map<string, Analysis>();

  async function analyse(userId: string): Promise<Analysis> {
    const [dataVersion, thresholds, zone] = await Promise.all([
      deps.dataVersionOf(userId),
      deps.thresholds(userId),
      deps.timeZoneOf(userId),
    ]);
    const timeZone = zone ?? 'UTC';
    const version = `${dataVersion}|${timeZone}|${JSON.stringify(thresholds)}`;
    const known = kept.get(userId);
    if (known?.version === version) return known;
    const [currencies, stops] = await Promise.all([deps.accountCurrencies(userId), deps.stopLevels(userId)]);
    const book = await readBook(deps, userId, dataVersion, currencies, stops);
    const flags = detectPatternColumns(book.columns, thresholds, timeZone);
    const apiIds = new Map<string, string>();
    const analysis: Analysis = { version, thresholds, book, readers: readersOf(book), flags, keys: null, apiIds };
    kept.delete(userId);
    kept.set(userId, analysis);
    if (kept.size > KEPT_USERS) kept.delete(kept.keys().next().value!);
    return analysis;
  }

  return {
    /** Every pattern, with its flagged trades in the range and their cost against the other closed trades there. */
    async patterns(userId: string, request: PatternsRequest): Promise<PatternResult[]> {
      const [analysis, accountKeys, home] = await Promise.all([
        analyse(userId),
        request.accountId ? deps.accountKeysNamed(userId, request.accountId) : undefined,
        deps.homeCurrencyOf(userId),
      ]);
      const { book, flags, thresholds } = analysis;
      const matches = tradeMatcher(
        {
          platform: request.platform,
          account: request.accountId,
          time:
            request.from || request.to
              ? { basis: 'open', ends: 'both', from: request.from, to: request.to }
              : undefined,
        },
        analysis.readers,
        { accountKeys },
      );
      const n = book.count;
      const { currency, closed: isClosed } = book.columns;
      const inRange = new Uint8Array(n);
      const closed = new Int32Array(n);
      let closedCount = 0;
      let rSum = 0;
      let rCount = 0;
      const closedPerCurrency = new Int32Array(book.currencies.length);
      for (let i = 0; i < n; i++) {
        if (!matches(i, i)) continue;
        inRange[i] = 1;
        if (isClosed[i] !== 1) continue;
        closed[closedCount++] = i;
        closedPerCurrency[currency[i]!]!++;
        const r = book.rHundredths[i]!;
        if (!Number.isNaN(r)) {
          rSum += r;
          rCount++;
        }
      }
      // The currencies booked decide the conversion; the days matter only when there is one to convert.
      const booked = closedPerCurrency.filter((k) => k > 0).length;
      const needs: Array<{ currency: string; day: string }> = [];
      for (let k = 0; k < (booked > 1 ? closedCount : Math.min(closedCount, 1)); k++)
        needs.push(bookedOf(book, closed[k]!));
      const conversion: Conversion = await prepareConversion(home, needs, deps.ratesFor?.(userId) ?? noDailyRates);
      const whole = closedCount > 0 ? figureOf(conversion, book, closed, closedCount) : null;
      return COACH_PATTERNS.map((pattern) => {
        const flagged = flags[pattern].filter((i) => inRange[i] === 1);
        const flaggedClosed = flagged.filter((i) => isClosed[i] === 1);
        const part = flaggedClosed.length > 0 ? figureOf(conversion, book, flaggedClosed, flaggedClosed.length) : null;
        const outside = Int32Array.from(closedPerCurrency);
        let flaggedR = 0;
        let flaggedRCount = 0;
        for (const i of flaggedClosed) {
          outside[currency[i]!]!--;
          const r = book.rHundredths[i]!;
          if (!Number.isNaN(r)) {
            flaggedR += r;
            flaggedRCount++;
          }
        }
        const othersCurrencies = book.currencies.filter((_, c) => outside[c]! > 0);
        const others = closedCount - flaggedClosed.length;
        return {
          pattern,
          definition: patternDefinition(pattern, thresholds),
          trades: flagged.map((i) => ({
            accountId: apiIdOf(analysis, textOf(book.accountKey, i)),
            tradeId: book.tradeId[i]!,
          })),
          count: flagged.length,
          netPL: part,
          othersNetPL: others > 0 && whole !== null ? remainder(whole, part, othersCurrencies.sort()) : null,
          averageR: meanR(flaggedR, flaggedRCount),
          othersAverageR: meanR(rSum - flaggedR, rCount - flaggedRCount),
        };
      });
    },

    /** The trade list's `pattern` filter (trade-views pattern-keys.ts): the keys of every trade the pattern flags. */
    async patternKeys(userId: string, pattern: CoachPattern): Promise<PatternKeys> {
      const analysis = await analyse(userId);
      // The list's cache already moves with the data version: the rest of the analysis' version names the flags.
      return {
        version: analysis.version.slice(analysis.version.indexOf('|') + 1),
        keys: keysOf(analysis).get(pattern)!,
      };
    },

    /** The patterns that flag one trade (the trade modal; an API account id and the trade id). */
    async patternsOfTrade(userId: string, trade: { accountId: string; tradeId: string }): Promise<CoachPattern[]> {
      const [analysis, accountKeys] = await Promise.all([
        analyse(userId),
        deps.accountKeysNamed(userId, trade.accountId),
      ]);
      return COACH_PATTERNS.filter((pattern) => {
        const keys = keysOf(analysis).get(pattern)!;
        for (const key of accountKeys) if (keys.has(`${key} ${trade.tradeId}`)) return true;
        return false;
      });
    },
  };
}
export type CoachPatterns = ReturnType<typeof createCoachPatterns>;
