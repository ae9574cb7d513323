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
import { bookingsOf, lastBookingAt, mergeBookings, runningBalances, type Booking } from './balance';
import { GRANULARITY_MS, equityAt, granularityFor, instrumentsNeeded, priceSeries, type PriceSeries } from './equity';
import type {
  AccountSource,
  CandleGranularity,
  CandleSource,
  CashFlowSource,
  EquitySample,
  EquitySampleSource,
  MoneyTrade,
  TradeSource,
} from './ports';
import { percentOf, timeWeightedReturns } from './returns';

export interface MoneyDeps {
  accounts: AccountSource;
  trades: TradeSource;
  cashFlows: CashFlowSource;
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

/** An account's bookings as of one data version, with the texts of their times and balances made once, when asked. */
interface Book {
  version: string;
  trades: MoneyTrade[];
  bookings: Booking[];
  balances: Float64Array;
  timeTexts: Array<string | undefined>;
  balanceTexts: Array<string | undefined>;
}

/** A point's equity where nothing tells it (shared: a history may hold 200,000 points). */
const UNKNOWN = Object.freeze({ minor: null, source: null });

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

  /** The account's trades, bookings and running balances, as of the user's data version (kept per instance). */
  async function book(userId: string, accountKey: string) {
    const key = `${userId}\u0000${accountKey}`;
    const version = await deps.versionOf(userId);
    const known = books.get(key);
    if (known?.version === version) return known;
    const [trades, flows] = await Promise.all([
      deps.trades.trades(userId, accountKey),
      deps.cashFlows.cashFlows(userId, { accountKey }),
    ]);
    const bookings = bookingsOf(trades, flows);
    const fresh: Book = {
      version,
      trades,
      bookings,
      balances: runningBalances(bookings),
      timeTexts: new Array<string | undefined>(bookings.length),
      balanceTexts: new Array<string | undefined>(bookings.length),
    };
    books.delete(key);
    books.set(key, fresh);
    if (books.size > KEPT_BOOKS) books.delete(books.keys().next().value!);
    return fresh;
  }

  /** The trades and bookings of several accounts as those of one (their combined balance, docs/money.md). */
  async function combinedBook(userId: string, accountKeys: readonly string[]) {
    const kept = await Promise.all(accountKeys.map((key) => book(userId, key)));
    return {
      trades: kept.length === 1 ? kept[0]!.trades : kept.flatMap((k) => k.trades),
      bookings: mergeBookings(kept.map((k) => k.bookings)),
    };
  }

  /** The range asked for, else from the first booking or trade to now. Null: nothing to show. */
  function rangeOf(
    trades: readonly MoneyTrade[],
    bookings: readonly Booking[],
    from: string | undefined,
    to: string | undefined,
  ): { from: number; to: number } | null {
    let first = bookings.length > 0 ? bookings[0]!.at : Number.POSITIVE_INFINITY;
    for (const t of trades) first = Math.min(first, instantOf(t.openTime));
    const start = from ? Date.parse(from) : first;
    const end = to ? Date.parse(to) : deps.now().getTime();
    if (!Number.isFinite(start) || start > end) return null;
    return { from: start, to: end };
  }

  function pointTimes(
    bookings: readonly Booking[],
    range: { from: number; to: number },
    resolution: BalanceResolution,
  ) {
    const times: number[] = [];
    if (resolution === 'trade') {
      for (const b of bookings)
        if (b.at >= range.from && b.at <= range.to && times.at(-1) !== b.at) {
          times.push(b.at);
          if (times.length > MAX_POINTS) break;
        }
    } else {
      const step = RESOLUTION_MS[resolution];
      // Each point closes its hour or UTC day: the value at its end.
      const count = Math.floor(range.to / step) - Math.floor(range.from / step) + 1;
      if (count > MAX_POINTS) return null;
      for (let end = (Math.floor(range.from / step) + 1) * step; end < range.to + step; end += step)
        times.push(Math.min(end, range.to));
    }
    return times.length > MAX_POINTS ? null : times;
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

  /** Equity from samples at the points they reach, then from candles; null where neither tells. */
  async function equities(
    userId: string,
    accountKey: string,
    currency: string | null,
    trades: readonly MoneyTrade[],
    times: readonly number[],
    balanceAt: (at: number) => number,
    range: { from: number; to: number },
  ): Promise<Array<{ minor: number | null; source: BalancePoint['equitySource'] }>> {
    type Known = { minor: number | null; source: BalancePoint['equitySource'] };
    const out = new Array<Known>(times.length).fill(UNKNOWN);
    if (times.length === 0) return out;
    const samples: EquitySample[] = await deps.samples.equitySamples(
      userId,
      accountKey,
      new Date(range.from - SAMPLE_REACH_MS).toISOString(),
      new Date(range.to).toISOString(),
    );
    const sampleAt = samples.map((s) => instantOf(s.time));
    const order = sampleAt.map((_, i) => i).sort((a, b) => sampleAt[a]! - sampleAt[b]!);
    let s = -1;
    times.forEach((at, i) => {
      while (s + 1 < order.length && sampleAt[order[s + 1]!]! <= at) s++;
      if (s >= 0 && at - sampleAt[order[s]!]! <= SAMPLE_REACH_MS)
        out[i] = { minor: minorUnitsOf(samples[order[s]!]!.nav), source: 'sample' };
    });
    const missing = times.filter((_, i) => out[i]!.source === null);
    if (missing.length === 0 || currency === null || !(await deps.candles.canRead(userId))) return out;

    const granularity = granularityFor(range.to - range.from);
    const step = GRANULARITY_MS[granularity];
    const from = Math.floor(range.from / step) * step - step;
    const to = Math.ceil(range.to / step) * step;
    const open = trades.filter(
      (t) => instantOf(t.openTime) <= range.to && (t.closeTime === null || instantOf(t.closeTime) > range.from),
    );
    const series = new Map<string, PriceSeries>();
    for (const instrument of instrumentsNeeded(open, currency)) {
      const found = seriesOf(userId, instrument, granularity, from, to);
      if (found) series.set(instrument, found);
    }
    const values = equityAt(missing, open, currency, series, granularity, balanceAt);
    let k = 0;
    out.forEach((point, i) => {
      if (point.source !== null) return;
      const minor = values[k++]!;
      if (minor !== null) out[i] = { minor, source: 'candles' };
    });
    return out;
  }

  return {
    async balanceHistory(
      userId: string,
      accountId: string,
      query: { from?: string | undefined; to?: string | undefined; resolution: BalanceResolution },
    ): Promise<BalanceHistory> {
      const { accountKey, currency } = await account(userId, accountId);
      const kept = await book(userId, accountKey);
      const { trades, bookings, balances } = kept;
      const range = rangeOf(trades, bookings, query.from, query.to);
      if (!range) return { currency, points: [], equityComplete: true };
      const times = pointTimes(bookings, range, query.resolution);
      if (!times)
        throw badRequest(
          `resolution: more than ${MAX_POINTS.toLocaleString('en-US')} points from ${new Date(range.from).toISOString()} to ${new Date(range.to).toISOString()}. Narrow from and to, or choose a coarser resolution.`,
          'TOO_MANY_POINTS',
        );
      const balanceAt = (at: number) => {
        const i = lastBookingAt(bookings, at);
        return i < 0 ? 0 : balances[i]!;
      };
      const equity = await equities(userId, accountKey, currency, trades, times, balanceAt, range);
      const byTrade = query.resolution === 'trade';
      return {
        currency,
        points: times.map((at, i) => {
          const j = lastBookingAt(bookings, at);
          const minor = equity[i]!.minor;
          return {
            time: byTrade ? (kept.timeTexts[j] ??= new Date(at).toISOString()) : new Date(at).toISOString(),
            balance: j < 0 ? formatMinorUnits(0) : (kept.balanceTexts[j] ??= formatMinorUnits(balances[j]!)),
            equity: minor === null ? null : formatMinorUnits(minor),
            equitySource: equity[i]!.source,
          };
        }),
        equityComplete: equity.every((e) => e.minor !== null),
      };
    },

    async returns(
      userId: string,
      query: { accountId: string; from?: string | undefined; to?: string | undefined; period: ReturnPeriodName },
    ): Promise<MoneyReturns> {
      const { accountKey, currency } = await account(userId, query.accountId);
      const { trades, bookings } = await combinedBook(userId, [accountKey]);
      const range = rangeOf(trades, bookings, query.from, query.to);
      if (!range) return { currency, total: percentOf(1), periods: [] };
      const periodMs = query.period === 'day' ? DAY_MS : query.period === 'month' ? 28 * DAY_MS : 365 * DAY_MS;
      if ((range.to - range.from) / periodMs > MAX_PERIODS)
        throw badRequest(
          `period: more than ${MAX_PERIODS.toLocaleString('en-US')} periods in the range. Narrow from and to, or choose a longer period.`,
          'TOO_MANY_PERIODS',
        );
      const result = timeWeightedReturns(bookings, range.from, range.to, query.period);
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
        const { trades, bookings } = await combinedBook(userId, keys);
        const range = rangeOf(trades, bookings, query.from, query.to);
        if (!range || lastBookingAt(bookings, range.to) < 0) continue;
        const { total } = timeWeightedReturns(bookings, range.from, range.to, null);
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
