import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarResponse, DayResponse } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { seedAccount, seedNote, seedTag, seedTrades, userIdOf } from '../../test/seed-trades';

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let alice: { token: string; username: string };
let bob: { token: string; username: string };

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db });
  const db = testDb.db.kysely;
  alice = await t.user('alice');
  bob = await t.user('bob');
  const aliceId = await userIdOf(db, alice.username);
  const key = await seedAccount(db, aliceId, '101-004-1000001-001');
  await seedTrades(db, aliceId, key, [
    // 2 Jan (UTC and New York): a win and a loss; the sum is exact (as doubles it would be 0.30000000000000004).
    { id: '1', open: '2025-01-02T09:00:00Z', close: '2025-01-02T15:00:00Z', pl: '0.1000' },
    { id: '2', open: '2025-01-02T10:00:00Z', close: '2025-01-02T16:00:00Z', pl: '0.2000' },
    { id: '3', open: '2025-01-02T11:00:00Z', close: '2025-01-02T17:00:00Z', pl: '-0.0500' },
    // Closes 4 Jan 01:30 UTC: 3 Jan in New York.
    { id: '4', open: '2025-01-03T09:00:00Z', close: '2025-01-04T01:30:00Z', pl: '-3.2500', units: '-1000' },
    // Closes 1 Feb 02:00 UTC: still 31 Jan in New York.
    { id: '5', open: '2025-01-31T20:00:00Z', close: '2025-02-01T02:00:00Z', pl: '5.0000' },
    // Opened in January, still open: on no day.
    { id: '6', open: '2025-01-10T09:00:00Z', pl: '0.0000', unrealized: '9.0000' },
    // Break-even: counted, neither a win nor a loss.
    { id: '7', open: '2025-01-20T09:00:00Z', close: '2025-01-20T10:00:00Z', pl: '0.0000' },
  ]);
  const tag = await seedTag(db, aliceId, 'setup', 'Breakout');
  await seedNote(db, aliceId, key, '2', { note: 'pullback entry', rating: 5, tags: [tag] });
  const bobId = await userIdOf(db, bob.username);
  const bobKey = await seedAccount(db, bobId, '101-004-2000002-001');
  await seedTrades(db, bobId, bobKey, [
    { id: '1', open: '2025-01-02T09:00:00Z', close: '2025-01-02T15:00:00Z', pl: '100.0000' },
  ]);
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
const post = (token: string, url: string, payload: unknown) =>
  t.call(token, { method: 'POST', url, payload: payload as object });
async function calendar(token: string, query: string) {
  const res = await get(token, `/api/v1/journal/get_calendar?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CalendarResponse>().data;
}

describe('get_calendar', () => {
  it('puts each closed trade on the day it closed in UTC by default, with exact sums and counts', async () => {
    const data = await calendar(alice.token, 'month=2025-01');
    expect(data).toMatchObject({ month: '2025-01', timeZone: 'UTC' });
    expect(data.days).toEqual([
      {
        date: '2025-01-02',
        netPL: '0.2500',
        currency: '',
        byCurrency: [{ currency: '', amount: '0.2500' }],
        trades: 3,
        wins: 2,
        losses: 1,
        hasEntry: false,
        ruleBreaks: 0,
      },
      {
        date: '2025-01-04',
        netPL: '-3.2500',
        currency: '',
        byCurrency: [{ currency: '', amount: '-3.2500' }],
        trades: 1,
        wins: 0,
        losses: 1,
        hasEntry: false,
        ruleBreaks: 0,
      },
      {
        date: '2025-01-20',
        netPL: '0.0000',
        currency: '',
        byCurrency: [{ currency: '', amount: '0.0000' }],
        trades: 1,
        wins: 0,
        losses: 0,
        hasEntry: false,
        ruleBreaks: 0,
      },
    ]);
    expect((await calendar(alice.token, 'month=2025-02')).days.map((d) => d.date)).toEqual(['2025-02-01']);
  });

  it('uses the trader’s zone for days and for the month’s bounds', async () => {
    const data = await calendar(alice.token, 'month=2025-01&timeZone=America/New_York');
    expect(data.days.map((d) => [d.date, d.netPL])).toEqual([
      ['2025-01-02', '0.2500'],
      ['2025-01-03', '-3.2500'],
      ['2025-01-20', '0.0000'],
      ['2025-01-31', '5.0000'],
    ]);
    expect((await calendar(alice.token, 'month=2025-02&timeZone=America/New_York')).days).toEqual([]);
  });

  it('marks days with a journal entry, also days without trades', async () => {
    const saved = await post(alice.token, '/api/v1/journal/update_day/2025-01-15', {
      note: 'Stayed out: CPI',
      mood: 3,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await post(alice.token, '/api/v1/journal/update_day/2025-01-02', { note: 'Overtraded', mood: 2 });
    const days = (await calendar(alice.token, 'month=2025-01')).days;
    expect(days.find((d) => d.date === '2025-01-15')).toEqual({
      date: '2025-01-15',
      // The account has no currency yet (''): one currency, as always.
      netPL: '0',
      currency: '',
      byCurrency: [],
      trades: 0,
      wins: 0,
      losses: 0,
      hasEntry: true,
      ruleBreaks: 0,
    });
    expect(days.find((d) => d.date === '2025-01-02')!.hasEntry).toBe(true);
    // Bob sees none of it, only his own day.
    expect((await calendar(bob.token, 'month=2025-01')).days).toEqual([
      {
        date: '2025-01-02',
        netPL: '100.0000',
        currency: '',
        byCurrency: [{ currency: '', amount: '100.0000' }],
        trades: 1,
        wins: 1,
        losses: 0,
        hasEntry: false,
        ruleBreaks: 0,
      },
    ]);
  });

  it('refuses a bad month or zone', async () => {
    for (const [query, message] of [
      ['month=2025-13', /month must be YYYY-MM/],
      ['month=January', /month must be YYYY-MM/],
      ['', /month/],
      ['month=2025-01&timeZone=Mars/Base', /timeZone must be an IANA time zone/],
    ] as const) {
      const res = await get(alice.token, `/api/v1/journal/get_calendar?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    expect((await get('', '/api/v1/journal/get_calendar?month=2025-01')).statusCode).toBe(401);
  });
});

describe('get_day and update_day', () => {
  it('returns the day’s entry and the trades that closed on it in the zone, newest first, as list rows', async () => {
    await post(alice.token, '/api/v1/journal/update_day/2025-01-03', { note: 'Red day, **stop** early', mood: 1 });
    const res = await get(alice.token, '/api/v1/journal/get_day/2025-01-03?timeZone=America/New_York');
    expect(res.statusCode, res.body).toBe(200);
    const day = res.json<DayResponse>().data;
    expect(day).toMatchObject({ date: '2025-01-03', note: 'Red day, **stop** early', mood: 1 });
    expect(day.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(day.trades.map((tr) => [tr.tradeId, tr.realizedPL])).toEqual([['4', '-3.2500']]);

    const second = (await get(alice.token, '/api/v1/journal/get_day/2025-01-02')).json<DayResponse>().data;
    expect(second.trades.map((tr) => tr.tradeId)).toEqual(['3', '2', '1']);
    expect(second.trades[1]).toMatchObject({ note: 'pullback entry', rating: 5, tags: [{ name: 'Breakout' }] });

    const empty = (await get(alice.token, '/api/v1/journal/get_day/2025-01-25')).json<DayResponse>().data;
    expect(empty).toEqual({ date: '2025-01-25', note: '', mood: null, updatedAt: null, trades: [] });
  });

  it('replaces the entry as a whole and keeps each user’s entries apart', async () => {
    await post(alice.token, '/api/v1/journal/update_day/2025-01-05', { note: 'first', mood: 4 });
    const res = await post(alice.token, '/api/v1/journal/update_day/2025-01-05', { note: 'second' });
    expect(res.json()).toMatchObject({ data: { date: '2025-01-05', note: 'second', mood: null } });
    const bobsView = (await get(bob.token, '/api/v1/journal/get_day/2025-01-05')).json<DayResponse>().data;
    expect(bobsView).toMatchObject({ note: '', mood: null, updatedAt: null, trades: [] });
    const bobsDay = (await get(bob.token, '/api/v1/journal/get_day/2025-01-02')).json<DayResponse>().data;
    expect(bobsDay.trades.map((tr) => tr.realizedPL)).toEqual(['100.0000']);
    expect(bobsDay.note).toBe('');
  });

  it('refuses bad input and changes nothing', async () => {
    await post(alice.token, '/api/v1/journal/update_day/2025-01-06', { note: 'kept', mood: 2 });
    for (const [url, body, message] of [
      ['/api/v1/journal/update_day/2025-01-06', { note: 'x', mood: 7 }, /mood must be a whole number from 1 to 5/],
      ['/api/v1/journal/update_day/2025-01-06', { note: 'x', mood: 2.5 }, /mood must be a whole number from 1 to 5/],
      [
        '/api/v1/journal/update_day/2025-01-06',
        { note: 'x'.repeat(100_000) },
        /note must be at most 20,000 characters/,
      ],
      ['/api/v1/journal/update_day/2025-01-06', { note: 42 }, /note must be text/],
      ['/api/v1/journal/update_day/2025-02-30', { note: 'x' }, /real calendar day/],
      ['/api/v1/journal/update_day/yesterday', { note: 'x' }, /date must be YYYY-MM-DD/],
    ] as const) {
      const res = await post(alice.token, url, body);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    const day = (await get(alice.token, '/api/v1/journal/get_day/2025-01-06')).json<DayResponse>().data;
    expect(day).toMatchObject({ note: 'kept', mood: 2 });
    const zone = await get(alice.token, '/api/v1/journal/get_day/2025-01-06?timeZone=Nowhere');
    expect(zone.statusCode).toBe(400);
    expect((await post('', '/api/v1/journal/update_day/2025-01-06', { note: 'x' })).statusCode).toBe(401);
  });
});
