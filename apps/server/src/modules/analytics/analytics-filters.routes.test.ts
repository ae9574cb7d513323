import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { dashboardMetricsResponse, type DashboardMetrics, type ErrorBody } from '@pipsense/contract';
import { startOandaSim, DEMO_TOKEN, type OandaSim } from '@pipsense/oanda-sim';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { rMultipleOf } from '../../domain/risk';
import { minorUnitsOf } from '../../domain/money';
import { round } from '../../domain/rounding';
import { SLICED_INSIGHTS_NOTE } from './analytics.service';

/*
 * The overview's journal filters and its by-tag breakdown, on SQLite and PostgreSQL: trades synced from the OANDA
 * simulator, tags and initial stops written straight into the tables (the journal routes are another module's), every
 * expected number worked out here from the stored rows.
 */

let sim: OandaSim;
let t: TestApp;
let database: Awaited<ReturnType<typeof createTestDb>>;
let token: string;
let otherToken: string;
let userId: string;
let otherTagId: string;

interface Row {
  account_key: string;
  trade_id: string;
  instrument: string;
  state: string;
  open_time: string;
  realized_pl: string;
  price: string | null;
  initial_units: string;
  average_close_price: string | null;
}
let rows: Row[];
const BREAKOUT = 'tag-breakout-' + randomUUID().slice(0, 8);
const FOMO = 'tag-fomo-' + randomUUID().slice(0, 8);
const CALM = 'tag-calm-' + randomUUID().slice(0, 8);
let breakout: Row[];
let fomo: Row[];
const login = (key: string) => key.slice(key.lastIndexOf(':') + 1);

async function idOf(username: string): Promise<string> {
  const row = await database.db.kysely
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Initial stop 1 % from entry against the trade. */
const stopFor = (r: Row) => {
  const price = Number(r.price);
  const long = !r.initial_units.startsWith('-');
  return (long ? price * 0.99 : price * 1.01).toFixed(3);
};

beforeAll(async () => {
  // Two accounts in one currency: the tags' P/L adds up across them (several currencies are never added:
  // docs/decisions/024-currencies-never-mixed.md, and currency-overview.test.ts).
  sim = await startOandaSim({
    accounts: [{ currency: 'USD' }, { currency: 'USD' }],
    tradesPerAccount: 40,
    historyDays: 60,
    seed: 23,
  });
  database = await createTestDb();
  t = await createTestApp({ OANDA_PRACTICE_URL: sim.url }, { db: database.db, oanda: { retries: 0 } });
  const user = await t.oandaUser({ ai: 'openai', oanda: { accessToken: DEMO_TOKEN } });
  token = user.token;
  userId = await idOf(user.username);
  const other = await t.user('other');
  otherToken = other.token;
  const otherId = await idOf(other.username);
  const db = database.db.kysely;
  rows = await db
    .selectFrom('trades')
    .select([
      'account_key',
      'trade_id',
      'instrument',
      'state',
      'open_time',
      'realized_pl',
      'price',
      'initial_units',
      'average_close_price',
    ])
    .where('user_id', '=', userId)
    .orderBy('open_time')
    .execute();
  const closed = rows.filter((r) => r.state === 'CLOSED');
  const open = rows.find((r) => r.state !== 'CLOSED');
  breakout = [...closed.slice(0, 5), ...(open ? [open] : [])];
  fomo = closed.slice(5, 9);
  const at = new Date().toISOString();
  otherTagId = 'tag-other-' + randomUUID().slice(0, 8);
  await db
    .insertInto('journal_tags')
    .values([
      {
        id: BREAKOUT,
        user_id: userId,
        kind: 'setup',
        name: 'Breakout',
        name_key: 'breakout',
        created_at: at,
        updated_at: at,
      },
      { id: FOMO, user_id: userId, kind: 'mistake', name: 'FOMO', name_key: 'fomo', created_at: at, updated_at: at },
      { id: CALM, user_id: userId, kind: 'emotion', name: 'Calm', name_key: 'calm', created_at: at, updated_at: at },
      {
        id: otherTagId,
        user_id: otherId,
        kind: 'setup',
        name: 'Theirs',
        name_key: 'theirs',
        created_at: at,
        updated_at: at,
      },
    ])
    .execute();
  const link = (tag: string, r: Row) => ({
    user_id: userId,
    account_key: r.account_key,
    trade_id: r.trade_id,
    tag_id: tag,
    created_at: at,
  });
  await db
    .insertInto('trade_tags')
    .values([...breakout.map((r) => link(BREAKOUT, r)), ...fomo.map((r) => link(FOMO, r))])
    .execute();
  // Initial stops on the first three breakout trades only (the sync stored the simulator's own first stops).
  await db.updateTable('trades').set({ initial_stop_loss_price: null }).where('user_id', '=', userId).execute();
  for (const r of breakout.slice(0, 3))
    await db
      .updateTable('trades')
      .set({ initial_stop_loss_price: stopFor(r) })
      .where('user_id', '=', userId)
      .where('account_key', '=', r.account_key)
      .where('trade_id', '=', r.trade_id)
      .execute();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await database?.close();
  await sim?.close();
});

async function metrics(query: string, as = token): Promise<{ data: DashboardMetrics; message: string }> {
  const res = await t.call(as, { method: 'GET', url: `/api/v1/dashboard/metrics${query}` });
  expect(res.statusCode, res.body).toBe(200);
  const body = dashboardMetricsResponse.parse(res.json());
  return { data: body.data, message: body.message };
}

async function refused(query: string): Promise<string> {
  const res = await t.call(token, { method: 'GET', url: `/api/v1/dashboard/metrics${query}` });
  expect(res.statusCode, res.body).toBe(400);
  return res.json<ErrorBody>().message;
}

const netOf = (list: readonly Row[]) =>
  list.filter((r) => r.state === 'CLOSED').reduce((sum, r) => sum + minorUnitsOf(r.realized_pl), 0) / 10_000;

describe('GET /api/v1/dashboard/metrics with the journal filters', () => {
  it('breaks the whole overview down by tag, every tag of the user, with R from the initial stops', async () => {
    const { data } = await metrics('');
    expect(data.tradeCount).toBe(rows.length);
    const closedBreakout = breakout.filter((r) => r.state === 'CLOSED');
    const rs = breakout.slice(0, 3).map((r) =>
      rMultipleOf({
        ...r,
        initialUnits: r.initial_units,
        averageClosePrice: r.average_close_price,
        initialStopLossPrice: stopFor(r),
      }),
    );
    const cents = rs.reduce<number>((sum, r) => sum + Math.round(r! * 100), 0);
    const byId = new Map(data.byTag.map((row) => [row.tagId, row]));
    expect(byId.get(BREAKOUT)).toMatchObject({
      name: 'Breakout',
      kind: 'setup',
      trades: closedBreakout.length,
      netPL: round(netOf(breakout), 2),
      averageR: round(cents / 3 / 100, 2),
      withInitialStop: 3,
    });
    expect(byId.get(FOMO)).toMatchObject({ kind: 'mistake', trades: 4, netPL: round(netOf(fomo), 2), averageR: null });
    expect(byId.get(CALM)).toMatchObject({ trades: 0, winRate: null, expectancy: null });
    expect(byId.has(otherTagId)).toBe(false);
    expect(data.riskInR).toMatchObject({ tradesWithInitialStop: 3, closedWithInitialStop: 3 });
    expect(data.riskAssessment?.['Trades with an Initial Stop']).toMatch(/^3 of /);
  });

  it('slices by tag (any of them), with the built-in insights and no provider call', async () => {
    const one = await metrics(`?tag=${BREAKOUT}`);
    expect(one.data.tradeCount).toBe(breakout.length);
    expect(one.data.insights).toMatchObject({ source: 'builtin', status: 'ready', note: SLICED_INSIGHTS_NOTE });
    const both = await metrics(`?tag=${BREAKOUT}&tag=${FOMO}`);
    expect(both.data.tradeCount).toBe(breakout.length + fomo.length);
    expect(both.data.byTag.find((row) => row.tagId === FOMO)?.trades).toBe(4);
    const none = await metrics(`?tag=${CALM}`);
    expect(none.data.tradeCount).toBe(0);
    expect(none.message).toMatch(/^No trades match these filters/);
  });

  it('slices by open time (inclusive), instrument and account', async () => {
    const from = rows[10]!.open_time;
    const to = rows[20]!.open_time;
    const inRange = rows.filter(
      (r) => Date.parse(r.open_time) >= Date.parse(from) && Date.parse(r.open_time) <= Date.parse(to),
    );
    const ranged = await metrics(`?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(ranged.data.tradeCount).toBe(inRange.length);
    // A slice of the history has no starting equity: no drawdown in %.
    expect(ranged.data.charts.drawdownPercent).toEqual([]);

    const instrument = rows[0]!.instrument;
    const onInstrument = await metrics(`?instrument=${instrument.toLowerCase()}`);
    expect(onInstrument.data.tradeCount).toBe(rows.filter((r) => r.instrument === instrument).length);
    expect(onInstrument.data.topInstrument).toBe(instrument);

    const account = login(rows[0]!.account_key);
    const onAccount = await metrics(`?accountId=${account}`);
    expect(onAccount.data.tradeCount).toBe(rows.filter((r) => login(r.account_key) === account).length);
    expect(onAccount.data.accountCount).toBe(1);
  });

  it('refuses bad filters with a message naming what to fix', async () => {
    expect(await refused('?from=2025-03-01&to=2025-02-01')).toMatch(/from must not be after to/);
    expect(await refused('?from=yesterday')).toMatch(/from must be an ISO-8601 date/);
    expect(await refused('?tag=no-such-tag')).toMatch(/tag no-such-tag is not one of your tags/);
    // Another user's tag is not the caller's either.
    expect(await refused(`?tag=${otherTagId}`)).toMatch(/is not one of your tags/);
  });

  it('never shows another user the journal', async () => {
    const { data } = await metrics('', otherToken);
    expect(data.tradeCount).toBe(0);
    expect(data.byTag.map((row) => row.name)).toEqual(['Theirs']);
  });
});
