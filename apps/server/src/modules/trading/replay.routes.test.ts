import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import type { BalanceHistory, Replay, ReplayEvent } from '@pipsense/contract';
import { instantOf } from '../../domain/calendar';
import { minorUnitsOf } from '../../domain/money';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { importedAccount, importedTrade } from '../../test/imported-book';
import { userIdOf } from '../../test/seed-trades';
import { createTradingService } from './trading.service';

/*
 * GET /api/v1/trade/get_replay against the v20 simulator (tools/oanda-sim), on SQLite and PostgreSQL: trades opened,
 * their stops moved and closed through the simulator's mutators, synced, then replayed. The simulator's and the
 * app's clocks are one, moved by the tests.
 */
const START = Date.UTC(2026, 10, 24, 9, 0); // a Tuesday
let clock = START;
const now = () => clock;

let sim: OandaSim;
let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let alice: string;
let aliceId: string;
let bob: string;
let noOanda: string;
let account: string;
let moved: string;
let kept: string;
let open: string;
let partial: string;
let yen: string;
/** The daily rates asked for (the currency rule's; app.ts reads them from the candle store's daily closes). */
const ratesAsked: string[] = [];

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
const replayOf = async (token: string, path: string) => {
  const res = await get(token, path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Replay }>().data;
};
const kinds = (events: ReplayEvent[]) => events.map((e) => e.kind);
const minutes = (n: number) => {
  clock += n * 60_000;
};

beforeAll(async () => {
  sim = await startOandaSim({ accounts: [{ currency: 'USD', trades: 5 }], now });
  testDb = await createTestDb();
  t = await createTestApp(
    { OANDA_PRACTICE_URL: sim.url, OANDA_LIVE_URL: 'http://127.0.0.1:9' },
    {
      db: testDb.db,
      now: () => new Date(clock),
      oanda: { retries: 1, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 3_000 },
      ratesFor: () => ({
        rate: (from, to, day) => {
          ratesAsked.push(`${from}>${to} ${day}`);
          return Promise.resolve(from === to ? '1' : from === 'JPY' && to === 'USD' ? '0.0066' : null);
        },
      }),
    },
  );
  account = sim.accountIds[0]!;
  const mid = Number(sim.state.price('EUR_USD').mid);

  // A long whose stop is moved twice (to break-even, then into profit), closed after an hour.
  const a = sim.openTrade(account, {
    instrument: 'EUR_USD',
    units: 10_000,
    stopLoss: (mid - 0.002).toFixed(5),
    takeProfit: (mid + 0.004).toFixed(5),
  });
  moved = a.id;
  // A short whose stop is never moved.
  kept = sim.openTrade(account, { instrument: 'EUR_USD', units: -5_000, stopLoss: (mid + 0.003).toFixed(5) }).id;
  // A long closed in two steps: 2,000 of its 6,000 units after 20 minutes, the rest with the others.
  partial = sim.openTrade(account, { instrument: 'EUR_USD', units: 6_000 }).id;
  minutes(20);
  sim.setStopLoss(account, moved, mid.toFixed(5));
  sim.closeTrade(account, partial, { units: 2_000 });
  minutes(20);
  sim.setStopLoss(account, moved, (mid + 0.0005).toFixed(5));
  minutes(20);
  sim.closeTrade(account, moved);
  sim.closeTrade(account, kept);
  sim.closeTrade(account, partial);
  // One still open.
  open = sim.openTrade(account, { instrument: 'EUR_USD', units: 1_000 }).id;
  // A short in yen, still open: its P/L is in yen, the account's currency USD.
  yen = sim.openTrade(account, { instrument: 'USD_JPY', units: -2_000 }).id;
  minutes(45);

  const aliceUser = await t.oandaUser({ oanda: { accessToken: sim.token } });
  alice = aliceUser.token;
  aliceId = await userIdOf(testDb.db.kysely, aliceUser.username);
  bob = (await t.oandaUser({ oanda: { accessToken: sim.token } }, 'bob')).token;
  const noOandaUser = await t.user('imported');
  noOanda = noOandaUser.token;
  const trading = createTradingService({
    db: testDb.db.kysely,
    oanda: {} as never,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => new Date(clock),
  });
  const imported = [
    importedTrade({ ticket: '9001', stopLossPrice: '1.07800', takeProfitPrice: '1.08400' }),
    importedTrade({
      ticket: '9002',
      symbol: 'US30.x',
      instrument: 'US30.x',
      price: '42000.0',
      averageClosePrice: '42100.0',
    }),
  ];
  await trading.storeImport(await userIdOf(testDb.db.kysely, noOandaUser.username), importedAccount(), imported);
  await trading.storeImport(await userIdOf(testDb.db.kysely, aliceUser.username), importedAccount(), imported);
});

afterAll(async () => {
  await t?.close();
  await testDb?.close();
  await sim?.close();
});

describe('GET /api/v1/trade/get_replay/:accountId/:tradeId', () => {
  it('a moved stop appears when it moved', async () => {
    const r = await replayOf(alice, `/api/v1/trade/get_replay/${account}/${moved}`);
    expect(r.granularity).toBe('M1');
    expect(r.side).toBe('long');
    expect(r.units).toBe('10000');
    // The stop and the target set with the fill share its time; the broker's order stands between them.
    expect(kinds(r.events).filter((k) => k !== 'take_profit_set')).toEqual([
      'entry',
      'stop_set',
      'stop_moved',
      'stop_moved',
      'exit',
    ]);
    expect(r.events.filter((e) => e.kind === 'take_profit_set')).toHaveLength(1);
    const [entry, stop, first, second, exit] = r.events.filter((e) => e.kind !== 'take_profit_set');
    expect(Date.parse(first!.time) - Date.parse(entry!.time)).toBe(20 * 60_000);
    expect(Date.parse(second!.time) - Date.parse(entry!.time)).toBe(40 * 60_000);
    expect(Number(first!.price)).toBeGreaterThan(Number(stop!.price));
    expect(Number(second!.price)).toBeGreaterThan(Number(first!.price));
    expect(exit!.units).toBe('10000');
    // 50 candles before the entry's, the entry's, one per minute to the exit's.
    expect(r.entryIndex).toBe(50);
    expect(r.candles[r.entryIndex]!.time <= entry!.time).toBe(true);
    expect(r.candles).toHaveLength(50 + 61);
    expect(r.candles.every((c) => c.complete && c.mid)).toBe(true);
    // A USD account trading EUR_USD: one pip of 10,000 units is exactly 1 USD; the stop (about 20 pips from the mid,
    // the fill at the ask) risks its distance in pips in USD.
    expect(r).toMatchObject({ currency: 'USD', pipValue: '1' });
    expect(r.riskAmount).toBe(((Number(r.entryPrice) - Number(stop!.price)) * 10_000).toFixed(2));
  });

  it('a stop never moved has no stop_moved; `before` and `granularity` as asked', async () => {
    const r = await replayOf(alice, `/api/v1/trade/get_replay/${account}/${kept}?granularity=M5&before=10`);
    expect(kinds(r.events)).toEqual(['entry', 'stop_set', 'exit']);
    expect(r.side).toBe('short');
    expect(r.granularity).toBe('M5');
    expect(r.entryIndex).toBe(10);
  });

  it('an open trade replays to now, without an exit', async () => {
    const r = await replayOf(alice, `/api/v1/trade/get_replay/${account}/${open}`);
    expect(kinds(r.events)).toEqual(['entry']);
    expect(r.candles.length).toBeGreaterThan(r.entryIndex + 40);
    expect(Date.parse(r.candles.at(-1)!.time)).toBeLessThan(clock);
  });

  it("an open trade quoted in another currency: its pip value at the last complete day's rate", async () => {
    ratesAsked.length = 0;
    const r = await replayOf(alice, `/api/v1/trade/get_replay/${account}/${yen}`);
    // 0.01 × 2,000 units × 0.0066 USD a yen = 0.132 USD a pip; the day before the clock's (Tuesday 24th) day.
    expect(r).toMatchObject({ currency: 'USD', pipSize: '0.01', pipValue: '0.132' });
    expect(ratesAsked).toEqual(['JPY>USD 2026-11-23']);
    // A trade quoted in the account's currency asks for no rate.
    ratesAsked.length = 0;
    expect((await replayOf(alice, `/api/v1/trade/get_replay/${account}/${open}`)).pipValue).toBe('0.1');
    expect(ratesAsked).toEqual([]);
  });

  it('a second read is answered from the kept candles', async () => {
    sim.requestLog.length = 0;
    await replayOf(alice, `/api/v1/trade/get_replay/${account}/${moved}`);
    expect(sim.requestLog.filter((r) => r.path.includes('/candles'))).toEqual([]);
  });

  it('400 names the bad field; a granularity too fine for the trade is refused', async () => {
    const bad = await get(alice, `/api/v1/trade/get_replay/${account}/${moved}?granularity=D`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/granularity/);
    const before = await get(alice, `/api/v1/trade/get_replay/${account}/${moved}?before=-3`);
    expect(before.statusCode).toBe(400);
    expect(before.json().message).toMatch(/before/);
    const many = await get(alice, `/api/v1/trade/get_replay/${account}/${moved}?before=501`);
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toMatch(/before/);
  });

  it("404 for another user's trade and for a trade that does not exist", async () => {
    const other = await get(noOanda, `/api/v1/trade/get_replay/${account}/${moved}`);
    expect(other.statusCode).toBe(404);
    // Bob sees the same OANDA account through the same token but never synced Alice's rows as his: his own rows.
    const missing = await get(bob, `/api/v1/trade/get_replay/${account}/999999`);
    expect(missing.statusCode).toBe(404);
  });

  it('409 says why: no OANDA connection, or no OANDA instrument for the symbol', async () => {
    const none = await get(noOanda, '/api/v1/trade/get_replay/42/9001');
    expect(none.statusCode, none.body).toBe(409);
    expect(none.json()).toMatchObject({ code: 'REPLAY_NO_CANDLE_SOURCE' });
    expect(none.json().message).toMatch(/^Replay needs candles: connect an OANDA account/);
    const us30 = await get(alice, '/api/v1/trade/get_replay/42/9002');
    expect(us30.statusCode, us30.body).toBe(409);
    expect(us30.json()).toMatchObject({ code: 'REPLAY_NO_CANDLES' });
    expect(us30.json().message).toMatch(/^OANDA has no candles for US30\.x/);
  });

  it('an imported trade replays with its stored stop and target at the entry', async () => {
    const list = await get(alice, '/api/v1/trade/get_replay/42/9001?granularity=M5');
    expect(list.statusCode, list.body).toBe(200);
    const r = list.json<{ data: Replay }>().data;
    expect(r.events.map((e) => [e.kind, e.price])).toEqual([
      ['entry', '1.08000'],
      ['stop_set', '1.07800'],
      ['take_profit_set', '1.08400'],
      ['exit', '1.08200'],
    ]);
  });

  it('an OANDA failure answers with its message, never a hang', async () => {
    sim.faults.fail(5, 503, { match: '/candles' });
    const res = await get(alice, `/api/v1/trade/get_replay/${account}/${open}?granularity=M15&before=300`);
    sim.faults.reset();
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'OANDA_UNAVAILABLE' });
  });

  it('a trade reduced before its close: the fills stored as the broker sent them, a partial_close, and the balance', async () => {
    // What the broker sent: the fill that reduced the trade and the one that closed it.
    const last = sim.state.lastTransactionID(account);
    const res = await fetch(
      `${sim.url}/v3/accounts/${account}/transactions/idrange?from=1&to=${last}&type=ORDER_FILL`,
      {
        headers: { authorization: `Bearer ${sim.token}` },
      },
    );
    type Reduce = { tradeID: string; units: string; price: string; realizedPL: string; financing: string };
    const { transactions } = (await res.json()) as {
      transactions: Array<{ id: string; time: string; tradeReduced?: Reduce; tradesClosed?: Reduce[] }>;
    };
    const reduced = transactions.find((x) => x.tradeReduced?.tradeID === partial)!;
    const closed = transactions.find((x) => x.tradesClosed?.some((c) => c.tradeID === partial))!;
    const closing = closed.tradesClosed!.find((c) => c.tradeID === partial)!;
    expect(Math.abs(Number(reduced.tradeReduced!.units))).toBe(2_000);
    expect(Math.abs(Number(closing.units))).toBe(4_000);

    const stored = await testDb.db.kysely
      .selectFrom('trade_reductions')
      .select(['transaction_num', 'kind', 'time', 'units', 'price', 'realized_pl', 'financing'])
      .where('user_id', '=', aliceId)
      .where('trade_id', '=', partial)
      .orderBy('transaction_num')
      .execute();
    const row = (tx: { id: string; time: string }, kind: string, r: Reduce) => ({
      transaction_num: Number(tx.id),
      kind,
      at: instantOf(tx.time),
      units: r.units,
      price: r.price,
      realized_pl: r.realizedPL,
      financing: r.financing,
    });
    expect(
      stored.map(({ time, transaction_num, ...r }) => ({
        ...r,
        transaction_num: Number(transaction_num),
        at: instantOf(time),
      })),
    ).toEqual([row(reduced, 'reduce', reduced.tradeReduced!), row(closed, 'close', closing)]);

    // The replay: the reduction at the fill's time and price, the exit at the final close with the units left.
    const r = await replayOf(alice, `/api/v1/trade/get_replay/${account}/${partial}`);
    expect(kinds(r.events)).toEqual(['entry', 'partial_close', 'exit']);
    const [, cut, exit] = r.events;
    expect(instantOf(cut!.time)).toBe(instantOf(reduced.time));
    // Twenty minutes after the entry (the simulator keeps a millisecond between one account's transactions).
    expect(Math.round((instantOf(cut!.time) - instantOf(r.events[0]!.time)) / 60_000)).toBe(20);
    expect(cut).toMatchObject({ price: reduced.tradeReduced!.price, units: '2000' });
    expect(instantOf(exit!.time)).toBe(instantOf(closed.time));
    expect(exit).toMatchObject({ price: closing.price, units: '4000' });

    // The balance steps at the reduction (last in this file: the history starts a rebuild of equity from candles,
    // which reads candles in the background) by its realized P/L, and at the close by the rest of the trade's.
    const history = await get(alice, `/api/v1/money/get_balance_history/${account}?resolution=trade`);
    expect(history.statusCode, history.body).toBe(200);
    const points = history.json<{ data: BalanceHistory }>().data.points;
    const stepAt = (at: number) => {
      const i = points.findIndex((p) => instantOf(p.time) === at);
      expect(i, `a point at ${new Date(at).toISOString()}`).toBeGreaterThan(0);
      return minorUnitsOf(points[i]!.balance) - minorUnitsOf(points[i - 1]!.balance);
    };
    const whole = sim.state.trade(account, partial)!;
    expect(minorUnitsOf(reduced.tradeReduced!.realizedPL)).not.toBe(0);
    expect(stepAt(instantOf(reduced.time))).toBe(minorUnitsOf(reduced.tradeReduced!.realizedPL));
    expect(stepAt(instantOf(closed.time))).toBe(
      minorUnitsOf(whole.realizedPL) - minorUnitsOf(reduced.tradeReduced!.realizedPL),
    );
    expect(minorUnitsOf(whole.realizedPL)).toBe(
      minorUnitsOf(reduced.tradeReduced!.realizedPL) + minorUnitsOf(closing.realizedPL),
    );
  });
});
