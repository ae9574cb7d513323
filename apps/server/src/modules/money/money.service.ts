import type {
  BalanceHistory,
  BalancePoint,
  BalanceResolution,
  MoneyReturns,
  OverviewReturn,
  ReturnPeriodName,
} from '@pipsense/contract';
import { DAY_MS, HOUR_MS, instantOf } from '../../domain/calendar';
import { formatMinorUnits, minorUnitsOf } from '../../domain/money';
import { badRequest, notFound } from '../../lib/errors';
import { bookingsOf, lastBookingAt, mergeBookings, positionsOf, runningBalances, type Bookings } from './balance';
import { GRANULARITY_MS, equityAt, granularityFor, instrumentsNeeded, priceSeries, type PriceSeries } from './equity';
import type {
  AccountSource,
  CandleGranularity,
  CandleSource,
  CashFlowSource,
  EquitySample,
  EquitySampleSource,
  MoneyPartialClose,
  MoneyTrade,
  PartialCloseSource,
  TradeSource,
} from './ports';
import { percentOf, timeWeightedReturns } from './returns';

export interface MoneyDeps {
  accounts: AccountSource;
  trades: TradeSource;
  cashFlows: CashFlowSource;
  /** The trades' partial closes, booked at their own time (none given: every trade books at its close). */
  partialCloses?: PartialCloseSource;
  samples: EquitySampleSource;
  candles: CandleSource;
  /**
   * The user's data version (db/data-versions.ts): it moves whenever stored trades, accounts or cash flows change, so
   * an account's bookings computed at one version are reused until it moves.
   */
  versionOf: (userId: string) => Promise<string>;
  now: () => Date;
  log?: (err: unknown, context: Record<string, unknown>) => void;
}

/** Points one history may hold; beyond, a narrower range or a coarser resolution is asked for. */
const MAX_POINTS = 200_000;
/** Periods one returns answer may hold. */
const MAX_PERIODS = 20_000;
/** Rebuilt candle series kept per instance (each one instrument over one range). */
const KEPT_SERIES = 256;
/** Accounts whose bookings are kept per instance (each up to a history's worth of trades). */
const KEPT_BOOKS = 8;
/** A sample older than this at a point says nothing about the point's equity. */
const SAMPLE_REACH_MS = HOUR_MS;

const RESOLUTION_MS: Record<Exclude<BalanceResolution, 'trade'>, number> = { hour: HOUR_MS, day: DAY_MS };

/**
 * The points of a book at resolution `trade`: one per distinct booking time, with the balance after its last booking.
 * A history at that resolution is a run of them.
 */
export interface TradePoints {
  /** Epoch milliseconds. */
  times: Float64Array;
  /** Minor units. */
  balances: Float64Array;
  /** Kept by the JSON writer (history-json.ts): every point's text with its equity unknown, made once per book. */
  text?: { bytes: Uint8Array; starts: Int32Array };
}

/** An account's bookings as of one data version, with what else its histories read (kept per instance). */
interface Book {
  version: string;
  bookings: Bookings;
  balances: Float64Array;
  points: TradePoints;
  /** The first trade's open time, epoch ms; +Infinity without any trade. */
  firstOpen: number;
  /** The partial closes of the account's trades (positionsOf). */
  partials: MoneyPartialClose[];
  /** Every trade of the account, read the first time candles are (E(t) from candles). */
  trades?: Promise<MoneyTrade[]>;
}

/** What a point's equity came from, by its code in HistoryColumns.sources. */
export const EQUITY_SOURCES = [null, 'sample', 'candles'] as const satisfies ReadonlyArray<
  BalancePoint['equitySource']
>;
const SAMPLE = 1;
const CANDLES = 2;

/**
 * A balance history as columns, point by point (what the route writes as JSON, history-json.ts): an account may
 * hold 100,000 points, and an object and four strings per point cost more than computing them.
 */
export interface HistoryColumns {
  currency: string | null;
  length: number;
  /** Epoch milliseconds. */
  times: Float64Array;
  /** B at each point, minor units. */
  balances: Float64Array;
  /** E at each point, minor units; NaN: unknown. */
  equities: Float64Array;
  /** Index into EQUITY_SOURCES (0: unknown). */
  sources: Uint8Array;
  equityComplete: boolean;
  /** At resolution `trade`: the book's points, of which this history's are `length` from `first`. */
  of?: { points: TradePoints; first: number };
}

/** The points at resolution `trade` of bookings and their running balances. */
function tradePoints(bookings: Bookings, balances: Float64Array): TradePoints {
  const { at } = bookings;
  let count = 0;
  for (let j = 0; j < bookings.length; j++) if (j + 1 === bookings.length || at[j + 1] !== at[j]) count++;
  const times = new Float64Array(count);
  const pointBalances = new Float64Array(count);
  let k = 0;
  for (let j = 0; j < bookings.length; j++)
    if (j + 1 === bookings.length || at[j + 1] !== at[j]) {
      times[k] = at[j]!;
      pointBalances[k++] = balances[j]!;
    }
  return { times, balances: pointBalances };
}

/** The first index of sorted `values` whose value is above `limit` (or at or above it when `inclusive`). */
function firstAbove(values: Float64Array, limit: number, inclusive: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < limit || (!inclusive && values[mid] === limit)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface SeriesEntry {
  series: PriceSeries | null;
}

/**
 * Balance and equity over time and time-weighted returns of one account (docs/money.md). Reads trades, cash flows,
 * equity samples and candles through its ports; writes nothing. Rebuilds of equity from candles run in the
 * background (priority 'rebuild') and are kept per instance; a history asked for while one runs is partial
 * (`equityComplete: false`) and complete once asked again after it ended.
 */
export function createMoneyService(deps: MoneyDeps) {
  const kept = new Map<string, SeriesEntry>();
  const books = new Map<string, Book>();
  const running = new Set<Promise<void>>();

  async function account(userId: string, accountId: string) {
    const named = await deps.accounts.named(userId, accountId);
    if (named.length === 0)
      throw notFound(
        `No account of yours has the key or login ${JSON.stringify(accountId)}. Pick one of your accounts.`,
      );
    if (named.length > 1)
      throw badRequest(
        `accountId: ${JSON.stringify(accountId)} names ${named.length} of your accounts. Use the account key instead of the login.`,
        'AMBIGUOUS_ACCOUNT',
      );
    return named[0]!;
  }

  /** The account's bookings and running balances, as of the user's data version (kept per instance). */
  async function book(userId: string, accountKey: string): Promise<Book> {
    const key = `${userId}\u0000${accountKey}`;
    const version = await deps.versionOf(userId);
    const known = books.get(key);
    if (known?.version === version) return known;
    const [closed, firstOpen, flows, partials] = await Promise.all([
      deps.trades.closed(userId, accountKey),
      deps.trades.firstOpenTime(userId, accountKey),
      deps.cashFlows.cashFlows(userId, { accountKey }),
      deps.partialCloses?.partialCloses(userId, accountKey) ?? [],
    ]);
    const bookings = bookingsOf(closed, flows, partials);
    const balances = runningBalances(bookings);
    const fresh: Book = {
      version,
      bookings,
      balances,
      points: tradePoints(bookings, balances),
      firstOpen: firstOpen === null ? Number.POSITIVE_INFINITY : instantOf(firstOpen),
      partials,
    };
    books.delete(key);
    books.set(key, fresh);
    if (books.size > KEPT_BOOKS) books.delete(books.keys().next().value!);
    return fresh;
  }

  /** The bookings of several accounts as those of one (their combined balance, docs/money.md). */
  async function combinedBook(
    userId: string,
    accountKeys: readonly string[],
  ): Promise<Pick<Book, 'bookings' | 'firstOpen'>> {
    const kept = await Promise.all(accountKeys.map((key) => book(userId, key)));
    if (kept.length === 1) return kept[0]!;
    return {
      bookings: mergeBookings(kept.map((k) => k.bookings)),
      firstOpen: Math.min(...kept.map((k) => k.firstOpen)),
    };
  }

  /** Every trade of the book's account as the positions E(t) values (positionsOf), read once per book. */
  function tradesOf(kept: Book, userId: string, accountKey: string): Promise<MoneyTrade[]> {
    kept.trades ??= deps.trades
      .trades(userId, accountKey)
      .then((trades) => positionsOf(trades, kept.partials))
      .catch((err: unknown) => {
        kept.trades = undefined; // asked again next time: a failed read is not an answer
        throw err;
      });
    return kept.trades;
  }

  /** The range asked for, else from the first booking or trade to now. Null: nothing to show. */
  function rangeOf(
    kept: Pick<Book, 'bookings' | 'firstOpen'>,
    from: string | undefined,
    to: string | undefined,
  ): { from: number; to: number } | null {
    const { bookings } = kept;
    const first = Math.min(bookings.length > 0 ? bookings.at[0]! : Number.POSITIVE_INFINITY, kept.firstOpen);
    const start = from ? Date.parse(from) : first;
    const end = to ? Date.parse(to) : deps.now().getTime();
    if (!Number.isFinite(start) || start > end) return null;
    return { from: start, to: end };
  }

  /**
   * The points of a range: at resolution `trade` the book's points in it; at `hour` and `day` the end of each hour or
   * UTC day (the last point at `to`), each with the balance of the last booking at or before it. Null: more than
   * MAX_POINTS.
   */
  function pointsOf(
    kept: Book,
    range: { from: number; to: number },
    resolution: BalanceResolution,
  ): { times: Float64Array; balances: Float64Array; first?: number } | null {
    if (resolution === 'trade') {
      const { points } = kept;
      const first = firstAbove(points.times, range.from, true);
      const end = firstAbove(points.times, range.to, false);
      if (end - first > MAX_POINTS) return null;
      return { times: points.times.subarray(first, end), balances: points.balances.subarray(first, end), first };
    }
    const { bookings, balances } = kept;
    const step = RESOLUTION_MS[resolution];
    // Each point closes its hour or UTC day: the value at its end.
    const count = Math.floor(range.to / step) - Math.floor(range.from / step) + 1;
    if (count > MAX_POINTS) return null;
    const times = new Float64Array(count);
    const pointBalances = new Float64Array(count);
    let j = -1;
    let k = 0;
    for (let end = (Math.floor(range.from / step) + 1) * step; end < range.to + step; end += step) {
      const time = Math.min(end, range.to);
      while (j + 1 < bookings.length && bookings.at[j + 1]! <= time) j++;
      times[k] = time;
      pointBalances[k++] = j < 0 ? 0 : balances[j]!;
    }
    return { times: times.subarray(0, k), balances: pointBalances.subarray(0, k) };
  }

  /** The kept series of one instrument over one range, starting its read in the background when missing. */
  function seriesOf(userId: string, instrument: string, granularity: CandleGranularity, from: number, to: number) {
    const key = `${userId}\u0000${instrument}\u0000${granularity}\u0000${from}\u0000${to}`;
    const entry = kept.get(key);
    if (entry) return entry.series;
    const fresh: SeriesEntry = { series: null };
    kept.set(key, fresh);
    if (kept.size > KEPT_SERIES) kept.delete(kept.keys().next().value!);
    const read = deps.candles
      .read({
        userId,
        instrument,
        granularity,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        priority: 'rebuild',
      })
      .then((candles) => {
        fresh.series = priceSeries(candles, granularity);
      })
      .catch((err: unknown) => {
        // Asked again on the next history: a failed read is not an answer.
        kept.delete(key);
        deps.log?.(err, { userId, instrument, granularity });
      })
      .finally(() => running.delete(read));
    running.add(read);
    return null;
  }

  /** Equity from samples at the points they reach, then from candles; unknown (NaN) where neither tells. */
  async function equities(
    userId: string,
    accountKey: string,
    currency: string | null,
    kept: Book,
    times: Float64Array,
    balanceAt: (at: number) => number,
    range: { from: number; to: number },
  ): Promise<{ equities: Float64Array; sources: Uint8Array }> {
    const equities = new Float64Array(times.length).fill(Number.NaN);
    const sources = new Uint8Array(times.length);
    if (times.length === 0) return { equities, sources };
    const samples: EquitySample[] = await deps.samples.equitySamples(
      userId,
      accountKey,
      new Date(range.from - SAMPLE_REACH_MS).toISOString(),
      new Date(range.to).toISOString(),
    );
    const sampleAt = samples.map((s) => instantOf(s.time));
    const order = sampleAt.map((_, i) => i).sort((a, b) => sampleAt[a]! - sampleAt[b]!);
    let s = -1;
    let known = 0;
    for (let i = 0; i < times.length; i++) {
      const at = times[i]!;
      while (s + 1 < order.length && sampleAt[order[s + 1]!]! <= at) s++;
      if (s >= 0 && at - sampleAt[order[s]!]! <= SAMPLE_REACH_MS) {
        equities[i] = minorUnitsOf(samples[order[s]!]!.nav);
        sources[i] = SAMPLE;
        known++;
      }
    }
    if (known === times.length || currency === null || !(await deps.candles.canRead(userId)))
      return { equities, sources };
    const missing: number[] = [];
    for (let i = 0; i < times.length; i++) if (sources[i] === 0) missing.push(i);

    const granularity = granularityFor(range.to - range.from);
    const step = GRANULARITY_MS[granularity];
    const from = Math.floor(range.from / step) * step - step;
    const to = Math.ceil(range.to / step) * step;
    const open = (await tradesOf(kept, userId, accountKey)).filter(
      (t) => instantOf(t.openTime) <= range.to && (t.closeTime === null || instantOf(t.closeTime) > range.from),
    );
    const series = new Map<string, PriceSeries>();
    for (const instrument of instrumentsNeeded(open, currency)) {
      const found = seriesOf(userId, instrument, granularity, from, to);
      if (found) series.set(instrument, found);
    }
    const values = equityAt(
      missing.map((i) => times[i]!),
      open,
      currency,
      series,
      granularity,
      balanceAt,
    );
    missing.forEach((i, k) => {
      const minor = values[k]!;
      if (minor === null) return;
      equities[i] = minor;
      sources[i] = CANDLES;
    });
    return { equities, sources };
  }

  /** B and E at every point of one account's history (docs/money.md), as columns. */
  async function balanceColumns(
    userId: string,
    accountId: string,
    query: { from?: string | undefined; to?: string | undefined; resolution: BalanceResolution },
  ): Promise<HistoryColumns> {
    const { accountKey, currency } = await account(userId, accountId);
    const kept = await book(userId, accountKey);
    const { bookings, balances } = kept;
    const range = rangeOf(kept, query.from, query.to);
    const none = new Float64Array(0);
    if (!range)
      return {
        currency,
        length: 0,
        times: none,
        balances: none,
        equities: none,
        sources: new Uint8Array(0),
        equityComplete: true,
      };
    const points = pointsOf(kept, range, query.resolution);
    if (!points)
      throw badRequest(
        `resolution: more than ${MAX_POINTS.toLocaleString('en-US')} points from ${new Date(range.from).toISOString()} to ${new Date(range.to).toISOString()}. Narrow from and to, or choose a coarser resolution.`,
        'TOO_MANY_POINTS',
      );
    const { times } = points;
    const balanceAt = (at: number) => {
      const i = lastBookingAt(bookings, at);
      return i < 0 ? 0 : balances[i]!;
    };
    const { equities: pointEquities, sources } = await equities(
      userId,
      accountKey,
      currency,
      kept,
      times,
      balanceAt,
      range,
    );
    return {
      currency,
      length: times.length,
      times,
      balances: points.balances,
      equities: pointEquities,
      sources,
      equityComplete: sources.every((source) => source !== 0),
      ...(points.first === undefined ? {} : { of: { points: kept.points, first: points.first } }),
    };
  }

  return {
    balanceColumns,

    /** The history as the contract's points (balanceColumns, one object per point). */
    async balanceHistory(
      userId: string,
      accountId: string,
      query: { from?: string | undefined; to?: string | undefined; resolution: BalanceResolution },
    ): Promise<BalanceHistory> {
      const columns = await balanceColumns(userId, accountId, query);
      const points: BalancePoint[] = [];
      for (let i = 0; i < columns.length; i++) {
        const equity = columns.equities[i]!;
        points.push({
          time: new Date(columns.times[i]!).toISOString(),
          balance: formatMinorUnits(columns.balances[i]!),
          equity: Number.isNaN(equity) ? null : formatMinorUnits(equity),
          equitySource: EQUITY_SOURCES[columns.sources[i]!]!,
        });
      }
      return { currency: columns.currency, points, equityComplete: columns.equityComplete };
    },

    async returns(
      userId: string,
      query: { accountId: string; from?: string | undefined; to?: string | undefined; period: ReturnPeriodName },
    ): Promise<MoneyReturns> {
      const { accountKey, currency } = await account(userId, query.accountId);
      const kept = await book(userId, accountKey);
      const range = rangeOf(kept, query.from, query.to);
      if (!range) return { currency, total: percentOf(1), periods: [] };
      const periodMs = query.period === 'day' ? DAY_MS : query.period === 'month' ? 28 * DAY_MS : 365 * DAY_MS;
      if ((range.to - range.from) / periodMs > MAX_PERIODS)
        throw badRequest(
          `period: more than ${MAX_PERIODS.toLocaleString('en-US')} periods in the range. Narrow from and to, or choose a longer period.`,
          'TOO_MANY_PERIODS',
        );
      const result = timeWeightedReturns(kept.bookings, range.from, range.to, query.period);
      return {
        currency,
        total: percentOf(result.total),
        periods: result.periods.map((p) => ({ start: new Date(p.start).toISOString(), return: percentOf(p.factor) })),
      };
    },

    /**
     * The time-weighted return of these accounts' combined balance, one per currency ordered by code, never across
     * currencies (docs/money.md, Returns on the Overview): since their first booking, or over [from, to] (bookings
     * before `from` only set the starting value). A currency whose accounts have no booking by `to` has none; an
     * account whose currency is not known yet is left out.
     */
    async returnsByCurrency(
      userId: string,
      query: {
        accounts: ReadonlyArray<{ accountKey: string; currency: string | null }>;
        from?: string | undefined;
        to?: string | undefined;
      },
    ): Promise<OverviewReturn[]> {
      const byCurrency = new Map<string, string[]>();
      for (const { accountKey, currency } of query.accounts)
        if (currency) byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), accountKey]);
      const out: OverviewReturn[] = [];
      for (const currency of [...byCurrency.keys()].sort()) {
        const keys = byCurrency.get(currency)!;
        const combined = await combinedBook(userId, keys);
        const range = rangeOf(combined, query.from, query.to);
        if (!range || lastBookingAt(combined.bookings, range.to) < 0) continue;
        const { total } = timeWeightedReturns(combined.bookings, range.from, range.to, null);
        out.push({ currency, total: percentOf(total), accounts: keys.length });
      }
      return out;
    },

    /** Resolves once every rebuild read started so far has ended (tests, the bench, a graceful close). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
export type MoneyService = ReturnType<typeof createMoneyService>;
