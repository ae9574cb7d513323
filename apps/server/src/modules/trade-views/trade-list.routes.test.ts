import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeListItem, TradeListResponse } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { seedAccount, seedNote, seedTag, seedTrades, userIdOf, type SeedTrade } from '../../test/seed-trades';
import { TRADE_BATCH } from './trade-views';
import { parseCsv } from '../../test/csv';

const A1 = '101-004-1000001-001';
const A2 = '101-004-1000001-002';

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let alice: { token: string };
let bob: { token: string };
let bulk: { token: string };
const tags: Record<string, string> = {};
let bobTag: string;

const TRADES: SeedTrade[] = [
  // EUR/USD long, 1R: stop 25 pips below entry, closed 25 pips above; excursions known.
  {
    id: '101',
    units: '10000',
    open: '2025-01-02T10:00:00Z',
    close: '2025-01-02T15:00:00Z',
    pl: '12.5000',
    price: '1.10000',
    closePrice: '1.10250',
    initialStop: '1.09750',
    mae: '1.09900',
    mfe: '1.10300',
    excursion: 'ready',
  },
  {
    id: '102',
    instrument: 'GBP_USD',
    units: '-5000',
    open: '2025-01-03T09:00:00Z',
    close: '2025-01-04T01:30:00Z',
    pl: '-3.2500',
    closePrice: '1.10065',
  },
  {
    id: '103',
    instrument: 'USD_JPY',
    units: '2000',
    price: '150.000',
    open: '2025-01-05T08:00:00Z',
    close: '2025-01-05T09:00:00Z',
    pl: '0.0000',
    closePrice: '150.000',
    excursion: 'unavailable',
  },
  {
    id: '104',
    units: '3000',
    open: '2025-01-06T08:00:00Z',
    pl: '0.0000',
    unrealized: '5.0000',
    initialStop: '1.09000',
  },
  { id: '105', open: '2025-01-01T08:00:00Z', close: '2025-01-01T23:30:00Z', pl: '9.9000', excursion: 'failed' },
  { id: '106', units: '-1000', open: '2025-01-07T08:00:00Z', close: '2025-01-07T10:00:00Z', pl: '-10.0000' },
];

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db });
  const db = testDb.db.kysely;
  const a = await t.user('alice');
  const b = await t.user('bob');
  const c = await t.user('bulk');
  alice = a;
  bob = b;
  bulk = c;
  const aliceId = await userIdOf(db, a.username);
  const bobId = await userIdOf(db, b.username);
  const key = await seedAccount(db, aliceId, A1);
  const key2 = await seedAccount(db, aliceId, A2);
  await seedTrades(db, aliceId, key, TRADES);
  await seedTrades(db, aliceId, key2, [
    { id: '201', instrument: 'AUD_USD', open: '2024-12-30T08:00:00Z', close: '2024-12-30T09:00:00Z', pl: '1.0000' },
  ]);
  tags.breakout = await seedTag(db, aliceId, 'setup', 'Breakout');
  tags.fomo = await seedTag(db, aliceId, 'emotion', 'FOMO');
  tags.late = await seedTag(db, aliceId, 'mistake', 'Late entry');
  await seedNote(db, aliceId, key, '101', {
    note: 'Chased the breakout, "FOMO"\nnext time wait',
    rating: 2,
    tags: [tags.breakout, tags.fomo],
  });
  await seedNote(db, aliceId, key, '102', { note: 'Good patience: 50%_done', tags: [tags.breakout] });
  await seedNote(db, aliceId, key, '106', { note: '', rating: 4, tags: [tags.late] });

  const bobKey = await seedAccount(db, bobId, '101-004-2000002-001');
  await seedTrades(db, bobId, bobKey, [
    { id: '101', open: '2025-01-02T11:00:00Z', close: '2025-01-02T12:00:00Z', pl: '7.0000' },
  ]);
  bobTag = await seedTag(db, bobId, 'setup', 'Breakout');
  await seedNote(db, bobId, bobKey, '101', { note: 'bob FOMO too', tags: [bobTag] });

  // More trades than one export batch, with many equal P/Ls and open times: the keyset must neither skip nor repeat.
  const bulkId = await userIdOf(db, c.username);
  const bulkKey = await seedAccount(db, bulkId, '101-004-3000003-001');
  const many: SeedTrade[] = [];
  for (let i = 0; i < TRADE_BATCH * 2 + 37; i += 1) {
    const open = new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 60_000).toISOString();
    const closed = i % 5 !== 0;
    many.push({
      id: String(1000 + i),
      instrument: ['EUR_USD', 'GBP_USD', 'USD_JPY'][i % 3]!,
      open,
      close: closed ? new Date(Date.parse(open) + (i % 7) * 3_600_000).toISOString() : null,
      pl: `${(i % 11) - 5}.${String(i % 4).padStart(4, '0')}`,
    });
  }
  await seedTrades(db, bulkId, bulkKey, many);
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

async function list(token: string, query = ''): Promise<TradeListResponse> {
  const limit = query.includes('limit=') ? '' : 'limit=100&';
  const res = await t.call(token, { method: 'GET', url: `/api/v1/trade/get_trade_history?${limit}${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TradeListResponse>();
}
const ids = async (query: string, token = alice.token) => (await list(token, query)).data.map((r) => r.tradeId);

async function refused(query: string, path = 'get_trade_history') {
  const res = await t.call(alice.token, { method: 'GET', url: `/api/v1/trade/${path}?${query}` });
  expect(res.statusCode, res.body).toBe(400);
  return res.json<{ success: boolean; message: string }>().message;
}

describe('get_trade_history', () => {
  it('lists newest open first, each row with its note, rating, tags and risk in R', async () => {
    const body = await list(alice.token);
    expect(body.total).toBe(7);
    expect(body.data.map((r) => r.tradeId)).toEqual(['106', '104', '103', '102', '101', '105', '201']);
    const byId = new Map(body.data.map((r) => [r.tradeId, r] as [string, TradeListItem]));
    expect(byId.get('101')).toMatchObject({
      accountId: A1,
      realizedPL: '12.5000',
      note: 'Chased the breakout, "FOMO"\nnext time wait',
      rating: 2,
      tags: [
        { id: tags.fomo, name: 'FOMO', kind: 'emotion' },
        { id: tags.breakout, name: 'Breakout', kind: 'setup' },
      ],
      initialRisk: { stopLossPrice: '1.09750', distance: '0.00250', pips: 25 },
      rMultiple: 1,
      mae: { price: '1.09900', pips: 10, r: -0.4 },
      mfe: { price: '1.10300', pips: 30, r: 1.2 },
      excursion: 'ready',
    });
    expect(byId.get('102')).toMatchObject({ initialRisk: null, rMultiple: null, mae: null, excursion: 'pending' });
    expect(byId.get('103')).toMatchObject({ note: '', rating: null, tags: [], excursion: 'unavailable', mae: null });
    // An open trade has its initial risk but no result in R and no excursions yet.
    expect(byId.get('104')).toMatchObject({
      initialRisk: { stopLossPrice: '1.09000', distance: '0.01000', pips: 100 },
      rMultiple: null,
      excursion: null,
    });
    expect(byId.get('105')!.excursion).toBe('pending');
    expect(byId.get('106')).toMatchObject({ note: '', rating: 4, tags: [{ id: tags.late }] });
  });

  it('sorts realized P/L as numbers, ties by open time, both ways', async () => {
    // As text 9.9 would sort above 12.5 and -3.25 below -10.
    expect(await ids('sort=realizedPL&order=desc')).toEqual(['101', '105', '201', '104', '103', '102', '106']);
    expect(await ids('sort=realizedPL&order=asc')).toEqual(['106', '102', '103', '104', '201', '105', '101']);
  });

  it('sorts by instrument, by close time (open trades last either way) and by open time ascending', async () => {
    expect(await ids('sort=instrument&order=asc')).toEqual(['201', '105', '101', '104', '106', '102', '103']);
    expect(await ids('sort=closeTime&order=desc')).toEqual(['106', '103', '102', '101', '105', '201', '104']);
    expect(await ids('sort=closeTime&order=asc')).toEqual(['201', '105', '101', '102', '103', '106', '104']);
    expect(await ids('sort=openTime&order=asc')).toEqual(['201', '105', '101', '102', '103', '104', '106']);
  });

  it('filters by instrument, side, outcome, state, account and open-time range', async () => {
    expect(await ids('instrument=GBP_USD')).toEqual(['102']);
    expect(await ids('side=short')).toEqual(['106', '102']);
    expect(await ids('side=long')).toEqual(['104', '103', '101', '105', '201']);
    expect(await ids('outcome=win')).toEqual(['101', '105', '201']);
    expect(await ids('outcome=loss')).toEqual(['106', '102']);
    // The open trade (P/L 0 so far) is no break-even: outcomes are of closed trades.
    expect(await ids('outcome=breakeven')).toEqual(['103']);
    expect(await ids('state=OPEN')).toEqual(['104']);
    expect(await ids('state=CLOSED')).toHaveLength(6);
    expect(await ids(`accountId=${A2}`)).toEqual(['201']);
    expect(await ids('accountId=101-004-9999999-001')).toEqual([]);
    // `to` is inclusive; a date alone is its midnight.
    expect(await ids('from=2025-01-02&to=2025-01-05T08:00:00Z')).toEqual(['103', '102', '101']);
    expect(await ids('from=2025-01-02T10:00:00.001Z&to=2025-01-05')).toEqual(['102']);
  });

  it('filters by tag (any of several), note text (case-insensitive, literal % and _) and whether a note exists', async () => {
    expect(await ids(`tag=${tags.breakout}`)).toEqual(['102', '101']);
    expect(await ids(`tag=${tags.fomo}&tag=${tags.late}`)).toEqual(['106', '101']);
    expect(await ids('q=fomo')).toEqual(['101']);
    expect(await ids('q=50%25_d')).toEqual(['102']);
    expect(await ids('q=5%25')).toEqual([]);
    expect(await ids('q=e')).toEqual(['102', '101']);
    expect(await ids('hasNote=true')).toEqual(['102', '101']);
    expect(await ids('hasNote=false')).toEqual(['106', '104', '103', '105', '201']);
    const combined = await list(alice.token, `tag=${tags.breakout}&sort=realizedPL&order=asc&from=2025-01-01`);
    expect(combined.data.map((r) => r.tradeId)).toEqual(['102', '101']);
  });

  it('pages a filtered, sorted list with its total', async () => {
    const res = await t.call(alice.token, {
      method: 'GET',
      url: '/api/v1/trade/get_trade_history?state=CLOSED&sort=realizedPL&order=desc&limit=4&page=2',
    });
    expect(res.json()).toMatchObject({ total: 6, pages: 2, message: '6 trades' });
    expect(res.json<TradeListResponse>().data.map((r) => r.tradeId)).toEqual(['102', '106']);
    // Filtered by tag (counted on the page itself), also past the last page.
    for (const [page, ids] of [
      [1, ['102']],
      [2, ['101']],
      [3, []],
    ] as const) {
      const tagged = await list(alice.token, `tag=${tags.breakout}&limit=1&page=${page}`);
      expect(tagged).toMatchObject({ total: 2, pages: 2 });
      expect(tagged.data.map((r) => r.tradeId)).toEqual(ids);
    }
    expect(await list(alice.token, 'q=nothing-like-this&page=2')).toMatchObject({ total: 0, pages: 1, data: [] });
  });

  it('shows a user only their own trades and journal, and refuses another user’s tag', async () => {
    const body = await list(bob.token);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ tradeId: '101', note: 'bob FOMO too', realizedPL: '7.0000' });
    expect(await ids('q=bob')).toEqual([]);
    expect(await refused(`tag=${bobTag}`)).toContain(JSON.stringify(bobTag));
  });

  it('refuses bad input with a message that names what to fix', async () => {
    expect(await refused('sort=pips')).toMatch(/sort must be openTime, closeTime, realizedPL or instrument/);
    expect(await refused('order=up')).toMatch(/order must be asc or desc/);
    expect(await refused('from=2025-02-01&to=2025-01-01')).toMatch(/from must not be after to/);
    expect(await refused('from=yesterday')).toMatch(/from must be an ISO-8601 date/);
    expect(await refused('outcome=big')).toMatch(/outcome must be win, loss or breakeven/);
    expect(await refused('side=up')).toMatch(/side must be long or short/);
    expect(await refused('hasNote=maybe')).toMatch(/hasNote must be true or false/);
    expect(await refused('state=PENDING')).toMatch(/state must be OPEN or CLOSED/);
    expect(await refused('tag=no-such-tag')).toMatch(/no tag "no-such-tag"/);
    expect(await refused(`q=${'x'.repeat(201)}`)).toMatch(/q must be at most 200 characters/);
    const res = await t.call(undefined, { method: 'GET', url: '/api/v1/trade/get_trade_history' });
    expect(res.statusCode).toBe(401);
  });
});

describe('export_trades', () => {
  const exportCsv = async (token: string, query = '') => {
    const res = await t.call(token, { method: 'GET', url: `/api/v1/trade/export_trades?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('answers the filtered list as an RFC 4180 attachment with exact decimals, UTC and local times, notes and tags', async () => {
    const res = await exportCsv(alice.token, `tag=${tags.breakout}&timeZone=America/New_York&sort=openTime&order=asc`);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="pipsense-trades-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.body.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(res.body);
    const col = (name: string) => header!.indexOf(name);
    expect(rows.map((r) => r[col('Trade ID')])).toEqual(['101', '102']);
    const [first, second] = rows as [string[], string[]];
    expect(first[col('Realized P/L')]).toBe('12.5000');
    expect(first[col('Open time (UTC)')]).toBe('2025-01-02T10:00:00.000000000Z');
    expect(first[col('Open time (local)')]).toBe('2025-01-02 05:00:00');
    expect(second[col('Close time (local)')]).toBe('2025-01-03 20:30:00');
    expect(second[col('Side')]).toBe('short');
    expect(first[col('Note')]).toBe('Chased the breakout, "FOMO"\nnext time wait');
    expect(first[col('Tags')]).toBe('emotion:FOMO; setup:Breakout');
    expect(first[col('Initial stop')]).toBe('1.09750');
    expect(first[col('R multiple')]).toBe('1');
    expect(first[col('MAE (R)')]).toBe('-0.4');
    expect(first[col('MFE (pips)')]).toBe('30');
    expect(first[col('Rating')]).toBe('2');
    expect(second[col('R multiple')]).toBe('');
    // The raw text quotes the note and doubles its quotes.
    expect(res.body).toContain('"Chased the breakout, ""FOMO""\nnext time wait"');
  });

  it('streams every matching trade across batches once, in the order asked for', async () => {
    for (const query of ['sort=realizedPL&order=asc', 'sort=closeTime&order=desc', 'sort=instrument&order=desc']) {
      const res = await exportCsv(bulk.token, query);
      const [header, ...rows] = parseCsv(res.body);
      expect(rows).toHaveLength(TRADE_BATCH * 2 + 37);
      const id = header!.indexOf('Trade ID');
      expect(new Set(rows.map((r) => r[id])).size).toBe(rows.length);
      // The same order as the list's pages.
      const pages: string[] = [];
      for (let page = 1; page <= 3; page += 1)
        pages.push(...(await list(bulk.token, `${query}&page=${page}`)).data.map((r) => r.tradeId));
      expect(rows.slice(0, 300).map((r) => r[id])).toEqual(pages);
    }
    const closedOnly = parseCsv((await exportCsv(bulk.token, 'state=CLOSED&outcome=loss')).body);
    expect(closedOnly.length - 1).toBe((await list(bulk.token, 'state=CLOSED&outcome=loss')).total);
  });

  it('is scoped to the user and refuses bad filters before sending anything', async () => {
    const rows = parseCsv((await exportCsv(bob.token)).body);
    expect(rows).toHaveLength(2);
    expect(await refused(`tag=${bobTag}`, 'export_trades')).toMatch(/no tag/);
    expect(await refused('timeZone=Mars/Base', 'export_trades')).toMatch(/timeZone must be an IANA time zone/);
    expect(await refused('from=2025-02-01&to=2025-01-01', 'export_trades')).toMatch(/from must not be after to/);
    const empty = parseCsv((await exportCsv(alice.token, 'instrument=NZD_USD')).body);
    expect(empty).toHaveLength(1);
  });
});
