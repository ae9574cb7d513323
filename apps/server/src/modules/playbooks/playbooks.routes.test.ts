import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MissedTrade,
  Playbook,
  PlaybookBody,
  PlaybookReport,
  TradeListResponse,
  TradePlaybook,
} from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { seedAccount, seedTrades, userIdOf, type SeedTrade } from '../../test/seed-trades';
import { parseCsv } from '../../test/csv';
import { NO_CANDLE_SOURCE } from './playbooks.service';

/*
 * The playbook routes on the suite's database (SQLite, or PostgreSQL with PIPSENSE_TEST_PG_URL), with trades written
 * straight into it (known P/L and R): playbooks and their checklists, reviews, bulk assignment, the hand-checked
 * report, missed trades, the trade list's, export's and Overview's playbook filters, bad input and other users.
 */
const A1 = '101-004-5000001-001';

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let alice: { token: string; username: string };
let bob: { token: string; username: string };

/*
 * EUR/USD longs of 10,000 units from 1.10000 with the initial stop at 1.09800: 20 pips = 1 R = 20.00 USD.
 *   301 +40 pips  +40.0000  +2 R     302 −20 pips −20.0000 −1 R     303 +20 pips +20.0000 +1 R
 *   304 −10 pips  −10.0000  −0.5 R   305 −40 pips −40.0000 −2 R     306 open (no P/L, no R)
 *   307 closed +5.0000 without an initial stop (no R), on no playbook until the bulk tests.
 */
const long = (id: string, day: number, close: string | null, pl: string): SeedTrade => ({
  id,
  units: '10000',
  price: '1.10000',
  initialStop: '1.09800',
  open: `2025-02-0${day}T10:00:00Z`,
  close: close === null ? null : `2025-02-0${day}T12:00:00Z`,
  closePrice: close,
  pl,
});
const TRADES: SeedTrade[] = [
  long('301', 1, '1.10400', '40.0000'),
  long('302', 2, '1.09800', '-20.0000'),
  long('303', 3, '1.10200', '20.0000'),
  long('304', 4, '1.09900', '-10.0000'),
  long('305', 5, '1.09600', '-40.0000'),
  long('306', 6, null, '0.0000'),
  { id: '307', open: '2025-02-07T10:00:00Z', close: '2025-02-07T11:00:00Z', pl: '5.0000', closePrice: '1.10050' },
];

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db });
  const db = testDb.db.kysely;
  alice = await t.user('alice');
  bob = await t.user('bob');
  const aliceId = await userIdOf(db, alice.username);
  const key = await seedAccount(db, aliceId, A1);
  await db.updateTable('broker_accounts').set({ currency: 'USD' }).where('account_key', '=', key).execute();
  await seedTrades(db, aliceId, key, TRADES);
  const bobId = await userIdOf(db, bob.username);
  const bobKey = await seedAccount(db, bobId, '101-004-5000002-001');
  await seedTrades(db, bobId, bobKey, [long('901', 1, '1.10100', '10.0000')]);
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
const post = (token: string, url: string, payload?: unknown) =>
  t.call(token, { method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) });
async function ok<T>(res: { statusCode: number; body: string; json: <U>() => U }): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: T }>().data;
}
async function refused(res: { statusCode: number; body: string; json: <U>() => U }, status: number): Promise<string> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json<{ message: string }>().message;
}

const BODY: PlaybookBody = {
  name: 'London breakout',
  description: 'Range of **Asia**, then the break.',
  instruments: ['eur_usd', 'GBP_USD', 'EUR_USD'],
  sessions: ['London', 'Asia'],
  groups: [
    { name: 'Entry', rules: [{ text: 'Wait for the candle close' }, { text: 'Trend aligned on H4' }] },
    { name: 'Risk', rules: [{ text: 'Risk 1 % at most' }] },
  ],
  defaultRiskPct: 1,
};
const create = async (token: string, body: PlaybookBody = BODY) =>
  ok<Playbook>(await post(token, '/api/v1/playbook/create_playbook', body));
const review = (token: string, tradeId: string, body: unknown, accountId = A1) =>
  post(token, `/api/v1/playbook/update_trade_playbook/${accountId}/${tradeId}`, body);
const ruleIds = (p: Playbook) => p.groups.flatMap((g) => g.rules.map((r) => r.id));
const listOf = async (query: string) =>
  ok<TradeListResponse['data']>(await get(alice.token, `/api/v1/trade/get_trade_history?limit=100&${query}`));
const idsOf = async (query: string) => (await listOf(query)).map((r) => r.tradeId).sort();

describe('playbooks', () => {
  it('creates, lists, edits (kept, new, retired) and deletes a playbook', async () => {
    const token = (await t.user('pb')).token;
    const created = await create(token);
    expect(created).toMatchObject({
      name: 'London breakout',
      instruments: ['EUR_USD', 'GBP_USD'],
      sessions: ['Asia', 'London'],
      defaultRiskPct: 1,
      counts: { trades: 0, reviewed: 0, followed: 0, missed: 0 },
      attachmentCount: 0,
    });
    expect(created.groups.map((g) => [g.name, g.rules.map((r) => r.text)])).toEqual([
      ['Entry', ['Wait for the candle close', 'Trend aligned on H4']],
      ['Risk', ['Risk 1 % at most']],
    ]);
    expect(await ok<Playbook[]>(await get(token, '/api/v1/playbook/get_playbooks'))).toEqual([created]);

    // Risk first, its rule renamed; the entry group keeps its second rule only and gains one; the first is retired.
    const [entry, risk] = created.groups as [Playbook['groups'][0], Playbook['groups'][0]];
    const edited = await ok<Playbook>(
      await post(token, `/api/v1/playbook/edit_playbook/${created.id}`, {
        ...BODY,
        name: 'London break',
        groups: [
          { id: risk.id, name: 'Risk', rules: [{ id: risk.rules[0]!.id, text: 'Risk 0.5 % at most' }] },
          { id: entry.id, name: 'Entry', rules: [{ id: entry.rules[1]!.id, text: 'Trend aligned' }, { text: 'New' }] },
        ],
      }),
    );
    expect(edited.name).toBe('London break');
    expect(edited.groups.map((g) => [g.id, g.rules.map((r) => r.text)])).toEqual([
      [risk.id, ['Risk 0.5 % at most']],
      [entry.id, ['Trend aligned', 'New']],
    ]);
    expect(edited.groups[1]!.rules[0]!.id).toBe(entry.rules[1]!.id);
    // The retired rule cannot be ticked on a new review.
    expect(ruleIds(edited)).not.toContain(entry.rules[0]!.id);

    const deleted = await ok<Playbook>(await post(token, `/api/v1/playbook/delete_playbook/${created.id}`));
    expect(deleted.id).toBe(created.id);
    expect(await ok<Playbook[]>(await get(token, '/api/v1/playbook/get_playbooks'))).toEqual([]);
    expect(await refused(await post(token, `/api/v1/playbook/delete_playbook/${created.id}`), 404)).toMatch(
      /Playbook not found/,
    );
  });

  it('refuses bad input with a message naming the field', async () => {
    const token = (await t.user('pbbad')).token;
    const p = await create(token);
    const other = await create(token, { ...BODY, name: 'Other' });
    const cases: Array<[unknown, RegExp]> = [
      [{ ...BODY, name: '' }, /name is required/],
      [{ ...BODY, name: 'x'.repeat(81) }, /name must be at most 80 characters/],
      [{ ...BODY, sessions: ['Tokyo'] }, /sessions must be among/],
      [{ ...BODY, instruments: ['EUR USD'] }, /instruments must be instrument names/],
      [{ ...BODY, defaultRiskPct: 0 }, /defaultRiskPct must be more than 0/],
      [{ ...BODY, groups: [{ name: '', rules: [] }] }, /group name is required/],
    ];
    for (const [body, message] of cases)
      expect(await refused(await post(token, '/api/v1/playbook/create_playbook', body), 400)).toMatch(message);
    // Ids of another playbook's groups and rules are not this playbook's.
    const foreignGroup = { ...BODY, groups: [{ id: other.groups[0]!.id, name: 'Entry', rules: [] }] };
    expect(await refused(await post(token, `/api/v1/playbook/edit_playbook/${p.id}`, foreignGroup), 400)).toMatch(
      /^groups\[0\]\.id: no group/,
    );
    const foreignRule = {
      ...BODY,
      groups: [{ name: 'Entry', rules: [{ text: 'x' }, { id: other.groups[0]!.rules[0]!.id, text: 'y' }] }],
    };
    expect(await refused(await post(token, `/api/v1/playbook/edit_playbook/${p.id}`, foreignRule), 400)).toMatch(
      /^groups\[0\]\.rules\[1\]\.id: no rule/,
    );
    // Nothing of a refused edit was written.
    const [now] = (await ok<Playbook[]>(await get(token, '/api/v1/playbook/get_playbooks'))).filter(
      (x) => x.id === p.id,
    );
    expect(now).toEqual(p);
  });
});

describe('reviews, bulk assignment and the report', () => {
  let book: Playbook;
  let second: Playbook;

  beforeAll(async () => {
    book = await create(alice.token);
    second = await create(alice.token, { ...BODY, name: 'Second' });
  });

  it('stores a review against the current rules; refuses rules not of the playbook, and other users’ trades', async () => {
    const [wait, trend, risk] = ruleIds(book) as [string, string, string];
    const all = { playbookId: book.id, followedRuleIds: [wait, trend, risk], reviewed: true };
    for (const id of ['301', '302', '303']) await ok<TradePlaybook>(await review(alice.token, id, all));
    await ok(await review(alice.token, '304', { ...all, followedRuleIds: [wait, trend] }));
    const broke = await ok<TradePlaybook>(await review(alice.token, '305', { ...all, followedRuleIds: [wait] }));
    expect(broke).toMatchObject({
      accountId: A1,
      tradeId: '305',
      playbookId: book.id,
      reviewed: true,
      followedRuleIds: [wait],
      followedAll: false,
    });
    expect(broke.rules.map((r) => [r.groupName, r.text, r.retired, r.followed])).toEqual([
      ['Entry', 'Wait for the candle close', false, true],
      ['Entry', 'Trend aligned on H4', false, false],
      ['Risk', 'Risk 1 % at most', false, false],
    ]);
    // Read back as stored; a trade with no playbook answers none, another user's trade a 404.
    expect(await ok<TradePlaybook>(await get(alice.token, `/api/v1/playbook/get_trade_playbook/${A1}/305`))).toEqual(
      broke,
    );
    expect(
      await ok<TradePlaybook>(await get(alice.token, `/api/v1/playbook/get_trade_playbook/${A1}/307`)),
    ).toMatchObject({ playbookId: null, reviewed: false, followedAll: null, rules: [] });
    expect(await refused(await get(bob.token, `/api/v1/playbook/get_trade_playbook/${A1}/305`), 404)).toMatch(
      /Trade not found/,
    );
    const open = await ok<TradePlaybook>(await review(alice.token, '306', { playbookId: book.id }));
    expect(open).toMatchObject({ reviewed: false, followedAll: null, followedRuleIds: [] });

    expect(
      await refused(
        await review(alice.token, '306', { playbookId: book.id, followedRuleIds: [ruleIds(second)[0]] }),
        400,
      ),
    ).toMatch(/^followedRuleIds: /);
    expect(await refused(await review(alice.token, '306', { playbookId: book.id, reviewed: 'yes' }), 400)).toMatch(
      /reviewed must be true or false/,
    );
    // Bob: not his trade, not his playbook.
    expect(await refused(await review(bob.token, '301', { playbookId: null }), 404)).toMatch(/Trade not found/);
    expect(await refused(await review(bob.token, '901', { playbookId: book.id }, '101-004-5000002-001'), 404)).toMatch(
      /Playbook not found/,
    );

    // The list shows each row's playbook and review; the counts follow.
    const rows = await listOf('sort=openTime&order=asc');
    expect(rows.map((r) => [r.tradeId, r.playbookId, r.reviewed, r.followedAll, r.attachmentCount])).toEqual([
      ['301', book.id, true, true, 0],
      ['302', book.id, true, true, 0],
      ['303', book.id, true, true, 0],
      ['304', book.id, true, false, 0],
      ['305', book.id, true, false, 0],
      ['306', book.id, false, null, 0],
      ['307', null, false, null, 0],
    ]);
    const listed = (await ok<Playbook[]>(await get(alice.token, '/api/v1/playbook/get_playbooks'))).find(
      (p) => p.id === book.id,
    )!;
    expect(listed.counts).toEqual({ trades: 6, reviewed: 5, followed: 3, missed: 0 });
  });

  it('filters the list, the export and the Overview by playbook and review state', async () => {
    expect(await idsOf(`playbookId=${book.id}`)).toEqual(['301', '302', '303', '304', '305', '306']);
    expect(await idsOf(`playbookId=${book.id}&playbookReview=followed`)).toEqual(['301', '302', '303']);
    expect(await idsOf('playbookReview=broke')).toEqual(['304', '305']);
    expect(await idsOf('playbookReview=unreviewed')).toEqual(['306']);
    expect(await idsOf(`playbookId=${second.id}`)).toEqual([]);
    expect(await idsOf(`playbookId=${book.id}&outcome=win`)).toEqual(['301', '303']);
    const total = (
      await get(alice.token, '/api/v1/trade/get_trade_history?limit=1&playbookReview=followed')
    ).json<TradeListResponse>();
    expect(total.total).toBe(3);
    const bad = await get(alice.token, '/api/v1/trade/get_trade_history?playbookReview=maybe');
    expect(await refused(bad, 400)).toMatch(/playbookReview must be followed, broke or unreviewed/);

    const csv = await get(alice.token, `/api/v1/trade/export_trades?playbookReview=broke&timeZone=UTC`);
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, ...rows] = parseCsv(csv.body);
    expect(rows.map((r) => r[header!.indexOf('Trade ID')]).sort()).toEqual(['304', '305']);
    expect(rows.map((r) => r[header!.indexOf('Attachments')])).toEqual(['0', '0']);

    const overview = async (query: string) =>
      (await ok<{ tradeCount: number }>(await get(alice.token, `/api/v1/dashboard/metrics?timeZone=UTC&${query}`)))
        .tradeCount;
    expect(await overview(`playbookId=${book.id}`)).toBe(6);
    expect(await overview(`playbookId=${book.id}&playbookReview=followed`)).toBe(3);
    expect(await overview('playbookReview=unreviewed')).toBe(1);
  });

  it('reports the playbook’s figures, checked by hand', async () => {
    // Rule "Wait for the candle close" retired after the reviews: it stays in the report, as retired.
    const [entry, risk] = book.groups as [Playbook['groups'][0], Playbook['groups'][0]];
    const [wait, trend] = entry.rules as [{ id: string; text: string }, { id: string; text: string }];
    await ok(
      await post(alice.token, `/api/v1/playbook/edit_playbook/${book.id}`, {
        ...BODY,
        groups: [
          { id: entry.id, name: 'Entry', rules: [{ id: trend.id, text: trend.text }] },
          { id: risk.id, name: 'Risk', rules: [{ id: risk.rules[0]!.id, text: risk.rules[0]!.text }] },
        ],
      }),
    );
    await ok(
      await post(alice.token, '/api/v1/playbook/create_missed_trade', {
        instrument: 'EUR_USD',
        side: 'long',
        time: '2025-02-03T09:00:00Z',
        playbookId: book.id,
        entry: '1.1000',
        stop: '1.0980',
        target: '1.1050',
      }),
    );
    const report = await ok<PlaybookReport>(await get(alice.token, `/api/v1/playbook/get_report/${book.id}`));
    const usd = (amount: string) => ({ mode: 'single', currency: 'USD', amount });
    expect(report).toEqual({
      playbookId: book.id,
      // 301–306 (306 open: counted, no P/L). Closed: 2 wins (301, 303) of 5 = 40 %.
      trades: 6,
      winRate: 40,
      // 40 − 20 + 20 − 10 − 40 = −10.
      netPL: usd('-10.0000'),
      // Gross profit 60 over gross loss 70 = 0.857… → 0.86.
      profitFactor: 0.86,
      // −10 over 5 closed trades.
      expectancy: usd('-2.0000'),
      // (2 − 1 + 1 − 0.5 − 2) / 5 = −0.1.
      expectancyR: -0.1,
      averageR: -0.1,
      // 3 of the 5 reviewed followed every rule.
      followRate: 60,
      reviewed: 5,
      rules: [
        // In checklist order, a group's retired rules after its current ones. Trend: unticked on 305. Wait: ticked on
        // every reviewed trade, retired since. Risk: unticked on 304 and 305.
        { id: trend.id, text: trend.text, retired: false, broken: 1 },
        { id: wait.id, text: wait.text, retired: true, broken: 0 },
        { id: risk.rules[0]!.id, text: risk.rules[0]!.text, retired: false, broken: 2 },
      ],
      // 301, 302, 303: 2 wins of 3 = 66.7 %; 40 − 20 + 20 = 40; 60 / 20 = 3; 40 / 3 = 13.3333; (2 − 1 + 1) / 3 = 0.67.
      followedAll: {
        trades: 3,
        winRate: 66.7,
        netPL: usd('40.0000'),
        profitFactor: 3,
        expectancy: usd('13.3333'),
        expectancyR: 0.67,
        averageR: 0.67,
      },
      // 304, 305: no win; −10 − 40 = −50; 0 / 50 = 0; −25 per trade; (−0.5 − 2) / 2 = −1.25.
      brokeSome: {
        trades: 2,
        winRate: 0,
        netPL: usd('-50.0000'),
        profitFactor: 0,
        expectancy: usd('-25.0000'),
        expectancyR: -1.25,
        averageR: -1.25,
      },
      // One missed trade; Alice has no OANDA connection: no outcome, nothing added to the R.
      missed: { count: 1, wouldBeR: 0 },
    });

    // From 2 to 4 February (open times, both ends): 302, 303, 304 and the missed trade of 3 February.
    const ranged = await ok<PlaybookReport>(
      await get(
        alice.token,
        `/api/v1/playbook/get_report/${book.id}?from=2025-02-02&to=2025-02-04T10:00:00Z&accountId=${A1}`,
      ),
    );
    // −20 + 20 − 10 = −10 over 3; R (−1 + 1 − 0.5) / 3 = −0.17; 2 of 3 reviewed followed every rule.
    expect(ranged).toMatchObject({ trades: 3, netPL: usd('-10.0000'), averageR: -0.17, followRate: 66.7, reviewed: 3 });
    expect(ranged.missed).toEqual({ count: 1, wouldBeR: 0 });
    expect(ranged.rules.map((r) => r.broken)).toEqual([0, 0, 1]);
    const otherAccount = await ok<PlaybookReport>(
      await get(alice.token, `/api/v1/playbook/get_report/${book.id}?accountId=999`),
    );
    expect(otherAccount).toMatchObject({ trades: 0, netPL: null, winRate: null, followRate: null, rules: [] });

    expect(await refused(await get(bob.token, `/api/v1/playbook/get_report/${book.id}`), 404)).toMatch(
      /Playbook not found/,
    );
    expect(await refused(await get(alice.token, `/api/v1/playbook/get_report/${book.id}?from=nope`), 400)).toMatch(
      /from must be an ISO-8601 date/,
    );
  });

  it('bulk-assigns all or nothing; a trade moved to another playbook starts unreviewed, the same one keeps its ticks', async () => {
    const bulk = (token: string, trades: string[], playbookId: string | null) =>
      post(token, '/api/v1/playbook/bulk_assign', {
        trades: trades.map((tradeId) => ({ accountId: A1, tradeId })),
        playbookId,
      });
    // One unknown trade: nothing written.
    expect(await refused(await bulk(alice.token, ['307', '999'], second.id), 404)).toMatch(/trade 999/);
    expect(await refused(await bulk(bob.token, ['301'], null), 404)).toMatch(/Trade not found/);
    expect(await refused(await bulk(alice.token, ['307'], 'no-such-playbook'), 404)).toMatch(/Playbook not found/);
    expect(
      await refused(await post(alice.token, '/api/v1/playbook/bulk_assign', { trades: [], playbookId: null }), 400),
    ).toMatch(/trades must name at least one trade/);
    expect(await idsOf(`playbookId=${second.id}`)).toEqual([]);

    expect(await ok(await bulk(alice.token, ['301', '307'], book.id))).toEqual({ updated: 2 });
    expect(await ok(await bulk(alice.token, ['302'], second.id))).toEqual({ updated: 1 });
    // The same request as before the write: the list's cached page moved with the list version.
    expect(await idsOf(`playbookId=${second.id}`)).toEqual(['302']);
    const rows = new Map((await listOf('')).map((r) => [r.tradeId, r]));
    expect(rows.get('301')).toMatchObject({ playbookId: book.id, reviewed: true, followedAll: true });
    expect(rows.get('307')).toMatchObject({ playbookId: book.id, reviewed: false, followedAll: null });
    expect(rows.get('302')).toMatchObject({ playbookId: second.id, reviewed: false, followedAll: null });

    expect(await ok(await bulk(alice.token, ['307', '302'], null))).toEqual({ updated: 2 });
    expect(await idsOf('playbookId=' + second.id)).toEqual([]);
    // Taking a single trade off its playbook drops its review.
    const off = await ok<TradePlaybook>(await review(alice.token, '306', { playbookId: null }));
    expect(off).toMatchObject({ playbookId: null, reviewed: false, rules: [] });
  });
});

describe('missed trades', () => {
  const MISSED = {
    instrument: 'gbp_usd',
    side: 'short',
    time: '2025-03-03T08:00:00Z',
    entry: '1.2700',
    stop: '1.2730',
    target: '1.2640',
    note: 'Saw it, hesitated.',
  };

  it('creates, lists by time, edits and deletes; the outcome says why it is unavailable without OANDA', async () => {
    const token = (await t.user('missed')).token;
    const p = await create(token);
    const created = await ok<MissedTrade>(
      await post(token, '/api/v1/playbook/create_missed_trade', { ...MISSED, playbookId: p.id }),
    );
    expect(created).toMatchObject({
      instrument: 'GBP_USD',
      side: 'short',
      time: '2025-03-03T08:00:00.000Z',
      playbookId: p.id,
      entry: '1.2700',
      stop: '1.2730',
      target: '1.2640',
      outcome: 'unavailable',
      wouldBeR: null,
      outcomeNote: NO_CANDLE_SOURCE,
      attachmentCount: 0,
    });
    const later = await ok<MissedTrade>(
      await post(token, '/api/v1/playbook/create_missed_trade', { ...MISSED, time: '2025-04-01T08:00:00Z' }),
    );
    expect(later.playbookId).toBeNull();
    const all = await ok<MissedTrade[]>(await get(token, '/api/v1/playbook/get_missed_trades'));
    expect(all.map((m) => m.id)).toEqual([later.id, created.id]);
    const march = await ok<MissedTrade[]>(
      await get(token, '/api/v1/playbook/get_missed_trades?from=2025-03-01&to=2025-03-31'),
    );
    expect(march.map((m) => m.id)).toEqual([created.id]);
    expect((await ok<Playbook[]>(await get(token, '/api/v1/playbook/get_playbooks')))[0]!.counts.missed).toBe(1);

    const edited = await ok<MissedTrade>(
      await post(token, `/api/v1/playbook/edit_missed_trade/${created.id}`, {
        ...MISSED,
        note: 'Edited',
        target: null,
      }),
    );
    expect(edited).toMatchObject({ note: 'Edited', target: null, playbookId: null });

    // Deleting the playbook keeps its missed trades, without a playbook.
    await ok(
      await post(token, `/api/v1/playbook/edit_missed_trade/${later.id}`, {
        ...MISSED,
        time: '2025-04-01T08:00:00Z',
        playbookId: p.id,
      }),
    );
    await ok(await post(token, `/api/v1/playbook/delete_playbook/${p.id}`));
    const kept = await ok<MissedTrade[]>(await get(token, '/api/v1/playbook/get_missed_trades'));
    expect(kept.map((m) => [m.id, m.playbookId])).toEqual([
      [later.id, null],
      [created.id, null],
    ]);

    const deleted = await ok<MissedTrade>(await post(token, `/api/v1/playbook/delete_missed_trade/${created.id}`));
    expect(deleted.note).toBe('Edited');
    expect(await refused(await post(token, `/api/v1/playbook/delete_missed_trade/${created.id}`), 404)).toMatch(
      /Missed trade not found/,
    );
  });

  it('refuses bad levels naming the field, and other users’ missed trades and playbooks', async () => {
    const token = (await t.user('missedbad')).token;
    const cases: Array<[unknown, RegExp]> = [
      [{ ...MISSED, stop: '1.2600' }, /stop must be below entry for a long and above it for a short/],
      [{ ...MISSED, target: '1.2800' }, /target must be above entry for a long and below it for a short/],
      [{ ...MISSED, entry: 'abc' }, /entry must be a price as a decimal string/],
      [{ ...MISSED, side: 'up' }, /side must be long or short/],
      [{ ...MISSED, instrument: 'EURUSD' }, /instrument must look like EUR_USD/],
      [{ ...MISSED, time: 'yesterday' }, /time must be an ISO-8601 date/],
      [{ ...MISSED, note: 'x'.repeat(5001) }, /note must be at most 5000 characters/],
    ];
    for (const [body, message] of cases)
      expect(await refused(await post(token, '/api/v1/playbook/create_missed_trade', body), 400)).toMatch(message);

    const mine = await ok<MissedTrade>(await post(token, '/api/v1/playbook/create_missed_trade', MISSED));
    const theirs = await create(alice.token, { ...BODY, name: 'Alice only' });
    expect(
      await refused(
        await post(token, '/api/v1/playbook/create_missed_trade', { ...MISSED, playbookId: theirs.id }),
        404,
      ),
    ).toMatch(/Playbook not found/);
    expect(await refused(await post(bob.token, `/api/v1/playbook/edit_missed_trade/${mine.id}`, MISSED), 404)).toMatch(
      /Missed trade not found/,
    );
    expect(await refused(await post(bob.token, `/api/v1/playbook/delete_missed_trade/${mine.id}`), 404)).toMatch(
      /Missed trade not found/,
    );
    expect(await ok<MissedTrade[]>(await get(bob.token, '/api/v1/playbook/get_missed_trades'))).toEqual([]);
    expect(await refused(await post(bob.token, `/api/v1/playbook/edit_playbook/${theirs.id}`, BODY), 404)).toMatch(
      /Playbook not found/,
    );
    expect(await refused(await post(bob.token, `/api/v1/playbook/delete_playbook/${theirs.id}`), 404)).toMatch(
      /Playbook not found/,
    );
    expect((await t.call(undefined, { method: 'GET', url: '/api/v1/playbook/get_playbooks' })).statusCode).toBe(401);
  });
});
