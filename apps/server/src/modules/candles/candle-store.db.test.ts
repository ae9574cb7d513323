// The candle store against the OANDA simulator's candles, counting the requests the simulator sees.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { createOandaClient, type OandaClient } from '../../integrations/oanda/oanda-client';
import { createTestDb } from '../../test/harness';
import { until } from '../../test/until';
import { createCandleBudget, type CandleBudget } from './candle-budget';
import { createCandleStore } from './candle-store';
import { memoryWindowCounter } from './window-counter';

let clock = Date.parse('2025-10-08T12:00:30.000Z');
let sim: OandaSim;
let live: OandaSim;
let client: OandaClient;
let testDb: { db: Db; close(): Promise<void> };

beforeAll(async () => {
  const now = () => clock;
  sim = await startOandaSim({ seed: 5, accounts: 1, tradesPerAccount: 5, now });
  live = await startOandaSim({ seed: 5, accounts: 1, tradesPerAccount: 5, now, environment: 'live' });
  client = createOandaClient({ practiceUrl: sim.url, liveUrl: live.url, retries: 0, baseDelayMs: 1 });
});
afterAll(async () => {
  await client.close();
  await sim.close();
  await live.close();
});
beforeEach(async () => {
  clock = Date.parse('2025-10-08T12:00:30.000Z');
  testDb = await createTestDb();
  await migrateToLatest(testDb.db);
  sim.requestLog.length = 0;
  live.requestLog.length = 0;
});
afterEach(() => testDb.close());

const demo = () => ({ accessToken: sim.token, mode: 'demo' as const });
/** The candle requests the simulator saw: their query and path. */
const asked = (s: OandaSim = sim): Array<Record<string, string>> =>
  s.requestLog.filter((r) => r.path.endsWith('/candles')).map((r) => ({ ...r.query, path: r.path }));
const param = (request: Record<string, string> | undefined, name: string): string => request?.[name] ?? '';

function store(budget?: CandleBudget, oanda: Pick<OandaClient, 'forCredentials'> = client) {
  return createCandleStore({
    db: testDb.db.kysely,
    oanda,
    budget: budget ?? createCandleBudget({ counter: memoryWindowCounter(() => new Date(clock)) }),
    now: () => new Date(clock),
  });
}

const read = (s: ReturnType<typeof store>, from: string, to: string, extra: Record<string, unknown> = {}) =>
  s.read({
    credentials: demo(),
    instrument: 'EUR_USD',
    granularity: 'M5',
    from,
    to,
    priority: 'interactive',
    ...extra,
  });

const stored = () => testDb.db.kysely.selectFrom('candles').selectAll().orderBy('time').execute();

describe('the candle store', () => {
  it('fetches a range once: a second read, by any reader, asks OANDA nothing', async () => {
    const s = store();
    const first = await read(s, '2025-10-06T08:00:00Z', '2025-10-06T12:00:00Z');
    expect(asked()).toHaveLength(1);
    // 4 hours of 5-minute candles, each complete, exact decimal strings, in order.
    expect(first).toHaveLength(48);
    expect(first.every((c) => c.complete && /^\d+\.\d{5}$/.test(c.o))).toBe(true);
    expect(first[0]!.time).toBe('2025-10-06T08:00:00.000000000Z');
    // Another store on the same table (another instance, another user of the environment): nothing fetched.
    const again = await read(store(), '2025-10-06T08:00:00Z', '2025-10-06T12:00:00Z');
    expect(again).toEqual(first);
    const inside = await read(store(), '2025-10-06T09:02:00Z', '2025-10-06T10:00:00Z');
    expect(asked()).toHaveLength(1);
    // The candle covering `from` is part of the answer, as OANDA answers it.
    expect(inside[0]!.time).toBe('2025-10-06T09:00:00.000000000Z');
    expect(inside).toEqual(first.filter((c) => c.time >= inside[0]!.time && c.time < '2025-10-06T10:00'));
    // And the candle before the range: a read reaches back one candle for the one covering its start.
    expect(await stored()).toHaveLength(49);
  });

  it('fetches only the gap of a partly stored range, and the same prices as one whole request', async () => {
    const s = store();
    await read(s, '2025-10-06T08:00:00Z', '2025-10-06T10:00:00Z');
    await read(s, '2025-10-06T12:00:00Z', '2025-10-06T13:00:00Z');
    sim.requestLog.length = 0;
    const joined = await read(s, '2025-10-06T09:00:00Z', '2025-10-06T14:00:00Z');
    // Two gaps, each asked for from where the stored span ends: 10:00 to 11:55 (the second read began one candle
    // before its 12:00), and 13:00–14:00.
    expect(asked()).toEqual([
      expect.objectContaining({ from: '2025-10-06T10:00:00.000Z', to: '2025-10-06T11:55:00.000Z' }),
      expect.objectContaining({ from: '2025-10-06T13:00:00.000Z', to: '2025-10-06T14:00:00.000Z' }),
    ]);
    const whole = await client
      .forCredentials(demo())
      .candles('EUR_USD', { granularity: 'M5', price: 'M', from: '2025-10-06T09:00:00Z', to: '2025-10-06T14:00:00Z' });
    expect(joined.map((c) => [c.time, c.o, c.h, c.l, c.c, c.volume])).toEqual(
      whole.candles.map((c) => [c.time, c.mid!.o, c.mid!.h, c.mid!.l, c.mid!.c, c.volume]),
    );
  });

  it('keeps no forming candle: it is fetched again on each read, and kept once complete', async () => {
    const s = store();
    const first = await read(s, '2025-10-08T11:00:00Z', '2025-10-08T12:00:30Z');
    const forming = first.at(-1)!;
    expect(forming).toMatchObject({ time: '2025-10-08T12:00:00.000000000Z', complete: false });
    expect(first.slice(0, -1).every((c) => c.complete)).toBe(true);
    expect((await stored()).some((r) => r.time === forming.time)).toBe(false);
    expect(asked()).toHaveLength(1);
    // A read of the same range asks again only for the span a candle's length before now onward.
    clock += 60_000;
    const second = await read(s, '2025-10-08T11:00:00Z', '2025-10-08T12:01:30Z');
    expect(asked()).toHaveLength(2);
    expect(Date.parse(param(asked()[1], 'from'))).toBeGreaterThanOrEqual(Date.parse('2025-10-08T11:55:00Z'));
    expect(second.at(-1)).toMatchObject({ time: forming.time, complete: false });
    // Once it has closed it is stored, and a read of what is past asks nothing.
    clock = Date.parse('2025-10-08T12:20:00Z');
    await read(s, '2025-10-08T11:00:00Z', '2025-10-08T12:20:00Z');
    expect((await stored()).find((r) => r.time === forming.time)).toBeDefined();
    sim.requestLog.length = 0;
    const past = await read(s, '2025-10-08T11:00:00Z', '2025-10-08T12:10:00Z');
    expect(asked()).toHaveLength(0);
    expect(past.every((c) => c.complete)).toBe(true);
  });

  it('asks for at most 5000 candles a request, and for a weekend inside a stored range never again', async () => {
    const s = store();
    // Five trading days of M1 (about 7,200 candles) across a weekend.
    const week = await read(s, '2025-09-24T00:00:00Z', '2025-09-30T00:00:00Z', { granularity: 'M1' });
    const requests = asked();
    expect(requests).toHaveLength(2);
    for (const r of requests)
      expect((Date.parse(param(r, 'to')) - Date.parse(param(r, 'from'))) / 60_000).toBeLessThanOrEqual(5000);
    expect(week.length).toBeGreaterThan(5000);
    sim.requestLog.length = 0;
    // Saturday and Sunday have no candle: the stored spans say so, nothing is asked.
    expect(await read(s, '2025-09-27T00:00:00Z', '2025-09-28T12:00:00Z', { granularity: 'M1' })).toEqual([]);
    expect(asked()).toHaveLength(0);
  });

  it('keeps each price component and each environment apart', async () => {
    const s = store();
    const range = ['2025-10-06T08:00:00Z', '2025-10-06T09:00:00Z'] as const;
    const mid = await read(s, ...range);
    const bid = await read(s, ...range, { price: 'B' });
    expect(asked().map((r) => r.price)).toEqual(['M', 'B']);
    expect(bid[0]!.o).not.toBe(mid[0]!.o);
    const liveCandles = await read(s, ...range, { credentials: { accessToken: live.token, mode: 'live' } });
    expect(asked(live)).toHaveLength(1);
    expect(liveCandles).toHaveLength(mid.length);
    const rows = await stored();
    expect(new Set(rows.map((r) => `${r.environment}:${r.price}`))).toEqual(
      new Set(['practice:M', 'practice:B', 'live:M']),
    );
  });

  it('answers the newest candles from the table, asking only for the span since (the forming candle again)', async () => {
    const s = store();
    const latest = (count: number) =>
      s.latest({ credentials: demo(), instrument: 'EUR_USD', granularity: 'M5', count, priority: 'interactive' });
    const first = await latest(60);
    expect(first).toHaveLength(60);
    expect(first.at(-1)!.complete).toBe(false);
    expect(asked()).toEqual([expect.objectContaining({ count: '60' })]);
    clock += 5 * 60_000;
    const second = await latest(60);
    expect(second).toHaveLength(60);
    expect(asked()).toHaveLength(2);
    expect(asked()[1]).toMatchObject({ from: expect.any(String), to: expect.any(String) });
    expect(second.at(-1)).toMatchObject({ time: '2025-10-08T12:05:00.000000000Z', complete: false });
    expect(second.slice(0, -1).map((c) => c.time)).toEqual(first.slice(1).map((c) => c.time));
  });

  it("gives a day's closing rate from the daily candle that closed that day; a weekend's is Friday's", async () => {
    const s = store();
    const close = (day: string) =>
      s.dailyClose({ credentials: demo(), instrument: 'USD_JPY', day, priority: 'rebuild' });
    const friday = await close('2025-09-26');
    expect(friday).toMatchObject({
      time: '2025-09-25T21:00:00.000000000Z',
      close: expect.stringMatching(/^\d+\.\d{3}$/),
    });
    // No daily candle starts on Friday at 21:00: Saturday and Sunday take Friday's close.
    expect(await close('2025-09-27')).toEqual(friday);
    expect(await close('2025-09-28')).toEqual(friday);
    const monday = await close('2025-09-29');
    expect(monday?.time).toBe('2025-09-28T21:00:00.000000000Z');
    await expect(close('26/09/2025')).rejects.toThrow('day must be a date');
  });

  it("lets a screen's request go before a background rebuild's still waiting", async () => {
    // One connection per token: the rebuild's first request is held at OANDA until the screen's has queued.
    const budget = createCandleBudget({ counter: memoryWindowCounter(() => new Date(clock)), inFlight: 1 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const gated: Pick<OandaClient, 'forCredentials'> = {
      forCredentials: (credentials) => {
        const api = client.forCredentials(credentials);
        return {
          ...api,
          candles: async (instrument, params) => {
            if (first) {
              first = false;
              await held;
            }
            return api.candles(instrument, params);
          },
        };
      },
    };
    const s = store(budget, gated);
    // A week of M1: three requests of at most 5000 candles.
    const rebuild = read(s, '2025-09-15T00:00:00Z', '2025-09-22T00:00:00Z', { granularity: 'M1', priority: 'rebuild' });
    await until(() => budget.load(sim.token).waiting.rebuild === 2, 'the rebuild to queue its requests');
    const screen = read(s, '2025-10-06T08:00:00Z', '2025-10-06T09:00:00Z', { instrument: 'GBP_USD' });
    await until(() => budget.load(sim.token).waiting.interactive === 1, "the screen's request to queue");
    release();
    await Promise.all([rebuild, screen]);
    const order = asked().map((r) => `${param(r, 'path').split('/')[3]}:${param(r, 'granularity')}`);
    expect(order).toEqual(['EUR_USD:M1', 'GBP_USD:M5', 'EUR_USD:M1', 'EUR_USD:M1']);
  });
});
