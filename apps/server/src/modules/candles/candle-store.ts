import type { Kysely } from 'kysely';
import { GRANULARITY_SECONDS, type Granularity } from '@pipsense/contract';
import { utcDateTime } from '../../domain/datetime';
import { normaliseDateTime } from '../../integrations/oanda/datetime';
import { MAX_CANDLES, type OandaClient, type OandaCredentials } from '../../integrations/oanda/oanda-client';
import type { CandlesResponse } from '../../integrations/oanda/wire-schemas';
import type { CandleBudget, CandlePriority } from './candle-budget';
import { createCandleRepository, type CandleRow, type SeriesKey } from './candle.repository';
import type { CandlesTables } from './tables';

/*
 * The one owner of OANDA candles (docs/decisions/023-candle-store.md). A read names a series (environment,
 * instrument, granularity, price component) and a time range; the store answers from its table and asks OANDA only
 * for the spans no earlier fetch has seen whole, each request within the token's budget (candle-budget.ts) and at
 * most OANDA's 5000 candles long. Only complete candles are kept; the forming one is fetched again on every read that
 * reaches it, and returned with `complete: false`.
 */

export type PriceComponent = 'M' | 'B' | 'A';

/** One candle of one price component; prices are OANDA's exact decimal strings, `time` its start (stored form). */
export interface Candle {
  time: string;
  o: string;
  h: string;
  l: string;
  c: string;
  volume: number;
  complete: boolean;
}

export interface CandleRangeRead {
  credentials: OandaCredentials;
  instrument: string;
  granularity: Granularity;
  /** Default M (mid). */
  price?: PriceComponent | undefined;
  /** RFC 3339; every candle overlapping [from, to) is returned, the one covering `from` included. */
  from: string;
  to: string;
  priority: CandlePriority;
  /** False: a spent budget rejects with CandleBudgetSpent instead of waiting (batch work). Default true. */
  wait?: boolean | undefined;
}

export interface CandleCountRead {
  credentials: OandaCredentials;
  instrument: string;
  granularity: Granularity;
  price?: PriceComponent | undefined;
  /** The newest `count` candles (1–5000), up to `to` or from `from` when one is given (OANDA's meaning). */
  count: number;
  from?: string | undefined;
  to?: string | undefined;
  priority: CandlePriority;
}

export interface CandleStoreDeps {
  db: Kysely<CandlesTables>;
  oanda: Pick<OandaClient, 'forCredentials'>;
  budget: CandleBudget;
  now: () => Date;
  /** A user's OANDA connection, for the reads named by user (undefined: none saved). */
  credentials?: ((userId: string) => Promise<OandaCredentials | undefined>) | undefined;
}

/** The nominal length of a candle in ms (a month, which has none, as 31 days). */
const candleMs = (granularity: Granularity): number =>
  granularity === 'M' ? 31 * 86_400_000 : GRANULARITY_SECONDS[granularity] * 1000;

/** Milliseconds of a stored-form or RFC 3339 time (nanoseconds cut to milliseconds). */
const msOf = (time: string): number => Date.parse(time.replace(/(\.\d{3})\d+/, '$1'));
const stored = (ms: number): string => utcDateTime(new Date(ms).toISOString())!;
const environmentOf = (credentials: OandaCredentials): SeriesKey['environment'] =>
  credentials.mode === 'live' ? 'live' : 'practice';

/** [from, to) minus the union of `covered`, in ms, in order. */
function gapsIn(from: number, to: number, covered: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const gaps: Array<[number, number]> = [];
  let cursor = from;
  for (const [start, end] of [...covered].sort((a, b) => a[0] - b[0])) {
    if (end <= cursor) continue;
    if (start >= to) break;
    if (start > cursor) gaps.push([cursor, Math.min(start, to)]);
    cursor = Math.max(cursor, end);
    if (cursor >= to) break;
  }
  if (cursor < to) gaps.push([cursor, to]);
  return gaps;
}

interface Fetched {
  /** Complete candles now stored, with their covered spans. */
  rows: CandleRow[];
  /** What was answered but not stored: the forming candle. */
  forming: Candle[];
}

export function createCandleStore(deps: CandleStoreDeps) {
  const repo = createCandleRepository(deps.db);
  const { budget, now } = deps;
  /** Identical fetches in flight in this instance share one request. */
  const inFlight = new Map<string, Promise<Fetched>>();

  /**
   * Stores the complete candles of an answer covering [askedFrom, …): what the answer saw whole ends at `until`
   * (the range's end, a candle length before now, or the forming candle, whichever is first).
   */
  async function keep(
    key: SeriesKey,
    body: CandlesResponse,
    askedFrom: number | undefined,
    until: number,
  ): Promise<Fetched> {
    const component = key.price === 'M' ? 'mid' : key.price === 'B' ? 'bid' : 'ask';
    const answered = body.candles
      .flatMap((c) => {
        const data = c[component];
        const time = normaliseDateTime(c.time);
        return data && time
          ? [{ time, ms: msOf(time), data, volume: c.volume ?? 0, complete: c.complete ?? false }]
          : [];
      })
      .sort((a, b) => a.ms - b.ms);
    const firstForming = answered.find((c) => !c.complete);
    const end = Math.min(until, firstForming?.ms ?? Infinity);
    const complete = answered.filter((c) => c.complete && c.ms < end);
    const forming = answered
      .filter((c) => !complete.includes(c))
      .map((c) => ({ time: c.time, ...c.data, volume: c.volume, complete: c.complete }));
    if (complete.length === 0) return { rows: [], forming };
    const rows: CandleRow[] = complete.map((c, i) => ({
      time: c.time,
      ...c.data,
      volume: c.volume,
      covered_from: i === 0 ? stored(Math.min(askedFrom ?? c.ms, c.ms)) : c.time,
      covered_to: i === complete.length - 1 ? stored(end) : complete[i + 1]!.time,
    }));
    // The edge rows may be stored already (the candle covering the range's start, a fetch of another instance):
    // their covered spans join.
    const edges = [...new Set([rows[0]!.time, rows[rows.length - 1]!.time])];
    for (const old of await repo.at(key, edges)) {
      const row = rows.find((r) => r.time === old.time)!;
      if (old.covered_from < row.covered_from) row.covered_from = old.covered_from;
      if (old.covered_to > row.covered_to) row.covered_to = old.covered_to;
    }
    await repo.upsert(key, rows, now().toISOString());
    return { rows, forming };
  }

  /** One OANDA request for [from, to) (at most MAX_CANDLES candles long), its complete candles stored. */
  function fetchRange(
    read: Pick<CandleRangeRead, 'credentials' | 'priority' | 'wait'>,
    key: SeriesKey,
    from: number,
    to: number,
  ): Promise<Fetched> {
    const id = [key.environment, key.instrument, key.granularity, key.price, from, to, read.priority, read.wait].join(
      '|',
    );
    const running = inFlight.get(id);
    if (running) return running;
    const api = deps.oanda.forCredentials(read.credentials);
    const work = budget
      .run(
        read.credentials.accessToken,
        read.priority,
        () =>
          api.candles(key.instrument, {
            granularity: key.granularity,
            price: key.price,
            from: new Date(from).toISOString(),
            to: new Date(to).toISOString(),
          }),
        { wait: read.wait ?? true },
      )
      .then((body) => keep(key, body, from, Math.min(to, now().getTime() - candleMs(key.granularity as Granularity))))
      .finally(() => inFlight.delete(id));
    inFlight.set(id, work);
    return work;
  }

  const toCandle = (row: CandleRow): Candle => ({
    time: row.time,
    o: row.o,
    h: row.h,
    l: row.l,
    c: row.c,
    volume: Number(row.volume),
    complete: true,
  });

  const seriesOf = (read: {
    credentials: OandaCredentials;
    instrument: string;
    granularity: Granularity;
    price?: PriceComponent | undefined;
  }): SeriesKey => ({
    environment: environmentOf(read.credentials),
    instrument: read.instrument,
    granularity: read.granularity,
    price: read.price ?? 'M',
  });

  /** Every candle overlapping [from, to), in time order: stored ones, the missing spans fetched, the forming one last. */
  async function read(request: CandleRangeRead): Promise<Candle[]> {
    const key = seriesOf(request);
    const length = candleMs(request.granularity);
    const fromMs = msOf(request.from);
    // Nothing starts after now (OANDA refuses a `to` in the future).
    const toMs = Math.min(msOf(request.to), now().getTime());
    // The candle covering `from` starts up to one length before it.
    const lo = fromMs - length;
    if (!(toMs > lo)) return [];
    const rows = await repo.around(key, stored(lo), stored(toMs));
    const covered = rows.map((r) => [msOf(r.covered_from), msOf(r.covered_to)] as const);
    const span = (MAX_CANDLES - 1) * length;
    const requests: Array<Promise<Fetched>> = [];
    // A stored candle starting at `from` is the one covering it: nothing before it is needed.
    const start = rows.some((r) => msOf(r.time) === fromMs) ? fromMs : lo;
    for (const [gapFrom, gapTo] of gapsIn(start, toMs, covered))
      for (let at = gapFrom; at < gapTo; at += span)
        requests.push(fetchRange(request, key, at, Math.min(gapTo, at + span)));
    const byTime = new Map<string, Candle>();
    for (const row of rows) byTime.set(row.time, toCandle(row));
    for (const fetched of await Promise.all(requests)) {
      for (const row of fetched.rows) byTime.set(row.time, toCandle(row));
      for (const candle of fetched.forming) if (!byTime.has(candle.time)) byTime.set(candle.time, candle);
    }
    return [...byTime.values()]
      .filter((c) => {
        const start = msOf(c.time);
        return start < toMs && start + length > fromMs;
      })
      .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  }

  /** OANDA's counted request (the newest `count`, or `count` from `from`), its complete candles stored. */
  async function fetchCounted(request: CandleCountRead, key: SeriesKey): Promise<Candle[]> {
    const api = deps.oanda.forCredentials(request.credentials);
    const body = await budget.run(request.credentials.accessToken, request.priority, () =>
      api.candles(key.instrument, {
        granularity: key.granularity,
        price: key.price,
        count: request.count,
        from: request.from,
        to: request.to,
      }),
    );
    const nowMs = now().getTime();
    const length = candleMs(request.granularity);
    const times = body.candles.map((c) => msOf(c.time)).filter(Number.isFinite);
    const last = times.length > 0 ? Math.max(...times) : undefined;
    // Counted from `from` and the count reached: nothing is known past the last candle answered.
    const cut =
      request.from !== undefined && last !== undefined && body.candles.length >= request.count
        ? last + 1
        : Math.min(request.to ? msOf(request.to) : nowMs, nowMs - length);
    const askedFrom = request.from ? msOf(request.from) : undefined;
    const fetched = await keep(key, body, askedFrom, Math.min(cut, nowMs - length));
    return [...fetched.rows.map(toCandle), ...fetched.forming].sort((a, b) =>
      a.time < b.time ? -1 : a.time > b.time ? 1 : 0,
    );
  }

  /**
   * The newest `count` candles (or `count` from `from`, or up to `to`). The newest ones: from the table with only
   * the span since the last read fetched (the forming candle again) when the table holds enough recent ones; else
   * one counted request, whose complete candles are kept.
   */
  async function latest(request: CandleCountRead): Promise<Candle[]> {
    const key = seriesOf(request);
    if (request.from !== undefined || request.to !== undefined) return fetchCounted(request, key);
    const nowMs = now().getTime();
    const length = candleMs(request.granularity);
    // The forming candle is never stored: the table may hold one fewer than asked, the read brings the rest.
    const newest = await repo.newest(key, stored(nowMs), request.count);
    const oldest = newest[newest.length - 1];
    // Recent enough: weekends and holidays allowed for, a span of a few times the candles asked for.
    const recent = oldest !== undefined && nowMs - msOf(oldest.time) <= 4 * request.count * length + 3 * 86_400_000;
    if (recent && newest.length >= Math.max(1, request.count - 1)) {
      const candles = await read({
        ...request,
        from: new Date(msOf(oldest.time)).toISOString(),
        to: new Date(nowMs).toISOString(),
      });
      if (candles.length >= request.count) return candles.slice(-request.count);
    }
    return fetchCounted(request, key);
  }

  /**
   * The closing mid rate of a UTC day (`YYYY-MM-DD`): the close of the last complete daily candle that started
   * before the day began (OANDA's daily candles close at 17:00 New York, docs/reference/oanda.md, Candles: the one
   * that closes during the day). A weekend or holiday takes the last trading day's. Null when OANDA has none in the
   * week before.
   */
  async function dailyClose(request: {
    credentials: OandaCredentials;
    instrument: string;
    day: string;
    priority: CandlePriority;
  }): Promise<{ time: string; close: string } | null> {
    const dayStart = Date.parse(`${request.day}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(request.day) || !Number.isFinite(dayStart))
      throw new TypeError(`day must be a date such as 2025-10-03, not ${JSON.stringify(request.day)}`);
    const candles = await read({
      credentials: request.credentials,
      instrument: request.instrument,
      granularity: 'D',
      price: 'M',
      from: new Date(dayStart - 7 * 86_400_000).toISOString(),
      to: new Date(dayStart + 86_400_000).toISOString(),
      priority: request.priority,
    });
    const closed = candles.filter((c) => c.complete && msOf(c.time) < dayStart);
    const last = closed[closed.length - 1];
    return last ? { time: last.time, close: last.c } : null;
  }

  async function credentialsOf(userId: string): Promise<OandaCredentials | undefined> {
    return deps.credentials?.(userId);
  }

  return {
    read,
    latest,
    dailyClose,
    /** `read` with the user's OANDA connection; null when the user has none (no candle source). */
    async readForUser(userId: string, request: Omit<CandleRangeRead, 'credentials'>): Promise<Candle[] | null> {
      const credentials = await credentialsOf(userId);
      return credentials ? read({ ...request, credentials }) : null;
    },
    /** `dailyClose` with the user's OANDA connection; null when the user has none. */
    async dailyCloseForUser(
      userId: string,
      request: { instrument: string; day: string; priority: CandlePriority },
    ): Promise<{ time: string; close: string } | null> {
      const credentials = await credentialsOf(userId);
      return credentials ? dailyClose({ ...request, credentials }) : null;
    },
  };
}

export type CandleStore = ReturnType<typeof createCandleStore>;
