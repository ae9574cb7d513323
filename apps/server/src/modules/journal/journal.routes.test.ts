import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import { JOURNAL_LIMITS, type TagItem, type TradeItem, type TradeNote } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import { STARTER_TAGS } from './journal.service';

/*
 * The journal routes on the suite's database (SQLite, or PostgreSQL with PIPSENSE_TEST_PG_URL), with trades synced
 * from the OANDA simulator: tags, a trade's note/rating/tags, bulk tagging, bad input and other users' attempts.
 */
const NOW = Date.UTC(2025, 9, 3, 14, 30);
let s: OandaSim;
let t: TestApp;

beforeAll(async () => {
  s = await startOandaSim({ accounts: 2, tradesPerAccount: 25, now: () => NOW });
  t = await createTestApp({ OANDA_PRACTICE_URL: s.url, OANDA_LIVE_URL: 'http://127.0.0.1:9' });
});
afterAll(async () => {
  await t.close();
  await s.close();
});

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
const post = (token: string, url: string, payload?: unknown) =>
  t.call(token, { method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) });

async function trader(): Promise<string> {
  return (await t.oandaUser({ oanda: { accessToken: s.token } })).token;
}
async function plainUser(): Promise<string> {
  return (await t.user()).token;
}

async function tradesOf(token: string): Promise<TradeItem[]> {
  const res = await get(token, '/api/v1/trade/get_trade_history?page=1&limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: TradeItem[] }>().data;
}
async function tagsOf(token: string): Promise<TagItem[]> {
  const res = await get(token, '/api/v1/journal/get_tags');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: TagItem[] }>().data;
}
const tagNamed = (tags: TagItem[], name: string) => tags.find((x) => x.name === name)!;
const noteUrl = (verb: 'get' | 'update', tr: { accountId: string; tradeId: string }) =>
  `/api/v1/journal/${verb}_trade_note/${tr.accountId}/${tr.tradeId}`;
async function noteOf(token: string, tr: { accountId: string; tradeId: string }): Promise<TradeNote> {
  const res = await get(token, noteUrl('get', tr));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: TradeNote }>().data;
}

describe('journal tags', () => {
  it('gives the starter set once, by kind then name, each with its trade count', async () => {
    const token = await plainUser();
    const tags = await tagsOf(token);
    const expected = (['setup', 'mistake', 'emotion'] as const).flatMap((kind) =>
      [...STARTER_TAGS[kind]]
        .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
        .map((name) => ({ kind, name, trades: 0 })),
    );
    expect(tags.map(({ kind, name, trades }) => ({ kind, name, trades }))).toEqual(expected);
    expect(await tagsOf(token)).toEqual(tags);

    // Deleting every starter tag: they do not come back.
    for (const tag of tags) expect((await post(token, `/api/v1/journal/delete_tag/${tag.id}`)).statusCode).toBe(200);
    expect(await tagsOf(token)).toEqual([]);
    const created = await post(token, '/api/v1/journal/create_tag', { name: 'Breakout', kind: 'setup' });
    expect(created.statusCode, created.body).toBe(200);
    expect((await tagsOf(token)).map((x) => x.name)).toEqual(['Breakout']);
  });

  it('creates, renames and deletes tags; names are unique per kind, whatever the case', async () => {
    const token = await plainUser();
    const created = await post(token, '/api/v1/journal/create_tag', { name: '  London   open ', kind: 'setup' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      success: true,
      message: 'Tag "London open" created.',
      data: { name: 'London open', kind: 'setup', trades: 0 },
    });
    const id = created.json<{ data: TagItem }>().data.id;

    const dup = await post(token, '/api/v1/journal/create_tag', { name: 'LONDON OPEN', kind: 'setup' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('You already have a setup tag named "London open". Choose another name.');
    const starterDup = await post(token, '/api/v1/journal/create_tag', { name: 'fomo', kind: 'mistake' });
    expect(starterDup.statusCode).toBe(409);
    // Another kind may hold the same name.
    expect((await post(token, '/api/v1/journal/create_tag', { name: 'London open', kind: 'emotion' })).statusCode).toBe(
      200,
    );

    const renamed = await post(token, `/api/v1/journal/edit_tag/${id}`, { name: 'london Open' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      message: 'Tag renamed to "london Open".',
      data: { id, name: 'london Open' },
    });
    const clash = await post(token, `/api/v1/journal/edit_tag/${id}`, { name: 'breakout' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('You already have a setup tag named "Breakout". Choose another name.');
    expect(tagNamed(await tagsOf(token), 'london Open').id).toBe(id);

    const unknown = await post(token, '/api/v1/journal/edit_tag/no-such-tag', { name: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Tag not found. It may have been deleted: reload your tags.');
    expect((await post(token, '/api/v1/journal/delete_tag/no-such-tag')).statusCode).toBe(404);

    const deleted = await post(token, `/api/v1/journal/delete_tag/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe('Tag "london Open" deleted.');
    expect((await tagsOf(token)).some((x) => x.id === id)).toBe(false);
  });

  it('refuses bad names and kinds, naming the field, and changes nothing', async () => {
    const token = await plainUser();
    const before = await tagsOf(token);
    const cases: Array<[unknown, string]> = [
      [{ name: '   ', kind: 'setup' }, 'name is required'],
      [{ name: 'x'.repeat(JOURNAL_LIMITS.tagName + 1), kind: 'setup' }, 'name must be at most 40 characters'],
      [{ name: 'Scalp', kind: 'strategy' }, 'kind must be setup, mistake or emotion'],
      [{ name: 42, kind: 'setup' }, 'name must be text'],
      [{ kind: 'setup' }, 'name must be text'],
    ];
    for (const [body, message] of cases) {
      const res = await post(token, '/api/v1/journal/create_tag', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const tag = before[0]!;
    const res = await post(token, `/api/v1/journal/edit_tag/${tag.id}`, { name: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('name is required');
    expect(await tagsOf(token)).toEqual(before);
  });

  it(`stops at ${JOURNAL_LIMITS.tagsPerUser} tags a user`, async () => {
    const token = await plainUser();
    const have = (await tagsOf(token)).length;
    for (let i = have; i < JOURNAL_LIMITS.tagsPerUser; i += 1)
      expect((await post(token, '/api/v1/journal/create_tag', { name: `Tag ${i}`, kind: 'setup' })).statusCode).toBe(
        200,
      );
    const over = await post(token, '/api/v1/journal/create_tag', { name: 'One more', kind: 'mistake' });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(
      'You have 200 tags, the most allowed. Delete one you no longer use to add another.',
    );
    expect((await tagsOf(token)).length).toBe(JOURNAL_LIMITS.tagsPerUser);
  });
});

describe('trade notes', () => {
  it('reads an empty note, replaces note, rating and tags as a whole, and counts tagged trades', async () => {
    const token = await trader();
    const [first, second] = await tradesOf(token);
    const tags = await tagsOf(token);
    const breakout = tagNamed(tags, 'Breakout');
    const fomo = tagNamed(tags, 'FOMO');
    const calm = tagNamed(tags, 'Calm');

    expect(await noteOf(token, first!)).toEqual({
      accountId: first!.accountId,
      tradeId: first!.tradeId,
      note: '',
      rating: null,
      tags: [],
      updatedAt: null,
    });

    const saved = await post(token, noteUrl('update', first!), {
      note: '# Entry\nWaited for the **retest**. <script>alert(1)</script>',
      rating: 4,
      tagIds: [calm.id, fomo.id, breakout.id, fomo.id],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const note = saved.json<{ data: TradeNote }>().data;
    expect(saved.json().message).toBe('Trade note saved.');
    expect(note).toMatchObject({
      accountId: first!.accountId,
      tradeId: first!.tradeId,
      note: '# Entry\nWaited for the **retest**. <script>alert(1)</script>',
      rating: 4,
      tags: [
        { id: breakout.id, name: 'Breakout', kind: 'setup' },
        { id: fomo.id, name: 'FOMO', kind: 'mistake' },
        { id: calm.id, name: 'Calm', kind: 'emotion' },
      ],
    });
    expect(note.updatedAt).toEqual(expect.any(String));
    expect(await noteOf(token, first!)).toEqual(note);
    // The other trade is untouched.
    expect((await noteOf(token, second!)).tags).toEqual([]);

    const counts = await tagsOf(token);
    expect(tagNamed(counts, 'FOMO').trades).toBe(1);
    expect(tagNamed(counts, 'Pullback').trades).toBe(0);

    // A whole replacement: left-out fields are cleared.
    const replaced = await post(token, noteUrl('update', first!), { note: 'Shorter.', tagIds: [fomo.id] });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<{ data: TradeNote }>().data).toMatchObject({
      note: 'Shorter.',
      rating: null,
      tags: [{ id: fomo.id, name: 'FOMO', kind: 'mistake' }],
    });

    // Deleting a tag takes it off the trade.
    const deleted = await post(token, `/api/v1/journal/delete_tag/${fomo.id}`);
    expect(deleted.json().message).toBe('Tag "FOMO" deleted and removed from 1 trade.');
    expect((await noteOf(token, first!)).tags).toEqual([]);
    expect((await noteOf(token, first!)).note).toBe('Shorter.');
  });

  it('refuses bad input with a message naming the field, and changes nothing', async () => {
    const token = await trader();
    const [trade] = await tradesOf(token);
    const tags = await tagsOf(token);
    const ok = await post(token, noteUrl('update', trade!), { note: 'kept', rating: 3, tagIds: [tags[0]!.id] });
    expect(ok.statusCode).toBe(200);
    const before = await noteOf(token, trade!);

    const cases: Array<[unknown, number, string]> = [
      [{ note: 'x'.repeat(100_000) }, 400, 'note must be at most 20,000 characters'],
      [{ note: 'x', rating: 7 }, 400, 'rating must be a whole number from 1 to 5'],
      [{ note: 'x', rating: 0 }, 400, 'rating must be a whole number from 1 to 5'],
      [{ note: 'x', rating: 2.5 }, 400, 'rating must be a whole number from 1 to 5'],
      [{ note: 42 }, 400, 'note must be text'],
      [{ tagIds: 'FOMO' }, 400, 'tagIds must be a list of tag ids'],
      [{ tagIds: [...tags.map((x) => x.id), ...(await extraTags(token, 6))] }, 400, 'tagIds: at most 20 tags'],
      [
        { note: 'x', tagIds: [tags[1]!.id, 'no-such-tag'] },
        400,
        'tagIds: no tag of yours has the id "no-such-tag" (it may have been deleted). Reload your tags.',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(token, noteUrl('update', trade!), body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.json().message).toBe(message);
      expect(await noteOf(token, trade!)).toEqual(before);
    }
  });

  it('answers 404 for a trade that is not among the caller’s, naming it', async () => {
    const token = await trader();
    const [trade] = await tradesOf(token);
    const missing = await get(token, noteUrl('get', { accountId: trade!.accountId, tradeId: '99999999' }));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(
      `Trade not found: trade 99999999 of account ${trade!.accountId} is not among your synced trades.`,
    );
    const wrongAccount = await post(
      token,
      noteUrl('update', { accountId: '101-000-0000000-999', tradeId: trade!.tradeId }),
      {
        note: 'x',
      },
    );
    expect(wrongAccount.statusCode).toBe(404);
    // A user without OANDA has no trades at all.
    const other = await plainUser();
    expect((await get(other, noteUrl('get', trade!))).statusCode).toBe(404);
  });
});

describe('bulk tagging', () => {
  it('adds the tags to every listed trade at once, keeping tags already there', async () => {
    const token = await trader();
    const trades = (await tradesOf(token)).slice(0, 10);
    const tags = await tagsOf(token);
    const breakout = tagNamed(tags, 'Breakout');
    const greedy = tagNamed(tags, 'Greedy');
    await post(token, noteUrl('update', trades[0]!), { note: 'first', rating: 5, tagIds: [breakout.id] });

    const refs = trades.map(({ accountId, tradeId }) => ({ accountId, tradeId }));
    const res = await post(token, '/api/v1/journal/bulk_tag', {
      trades: [...refs, refs[1]],
      tagIds: [breakout.id, greedy.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Tagged 10 trades: 19 tags added.', data: { trades: 10, added: 19 } });
    for (const tr of trades) expect((await noteOf(token, tr)).tags.map((x) => x.name)).toEqual(['Breakout', 'Greedy']);
    expect(await noteOf(token, trades[0]!)).toMatchObject({ note: 'first', rating: 5 });
    const counts = await tagsOf(token);
    expect(tagNamed(counts, 'Breakout').trades).toBe(10);
    expect(tagNamed(counts, 'Greedy').trades).toBe(10);

    const again = await post(token, '/api/v1/journal/bulk_tag', { trades: refs, tagIds: [greedy.id] });
    expect(again.json()).toMatchObject({ data: { trades: 10, added: 0 } });
  });

  it('is refused whole when one trade or one tag is not the caller’s', async () => {
    const token = await trader();
    const trades = (await tradesOf(token)).slice(0, 5);
    const refs = trades.map(({ accountId, tradeId }) => ({ accountId, tradeId }));
    const tag = tagNamed(await tagsOf(token), 'Range');

    const badTrade = await post(token, '/api/v1/journal/bulk_tag', {
      trades: [...refs, { accountId: refs[0]!.accountId, tradeId: '424242' }],
      tagIds: [tag.id],
    });
    expect(badTrade.statusCode).toBe(404);
    expect(badTrade.json().message).toBe(
      `Trade not found: trade 424242 of account ${refs[0]!.accountId} is not among your synced trades.`,
    );
    const badTag = await post(token, '/api/v1/journal/bulk_tag', { trades: refs, tagIds: [tag.id, 'nope'] });
    expect(badTag.statusCode).toBe(400);
    expect(badTag.json().message).toContain('tagIds: no tag of yours has the id "nope"');

    const cases: Array<[unknown, string]> = [
      [{ trades: [], tagIds: [tag.id] }, 'select at least one trade'],
      [{ trades: refs, tagIds: [] }, 'choose at least one tag'],
      [
        { trades: Array.from({ length: 501 }, (_, i) => ({ accountId: 'a', tradeId: String(i) })), tagIds: [tag.id] },
        'at most 500 trades at once',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post(token, '/api/v1/journal/bulk_tag', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
    }
    for (const tr of trades) expect((await noteOf(token, tr)).tags).toEqual([]);
    expect(tagNamed(await tagsOf(token), 'Range').trades).toBe(0);
  });

  it(`refuses to put more than ${JOURNAL_LIMITS.tagsPerTrade} tags on a trade`, async () => {
    const token = await trader();
    const [a, b] = await tradesOf(token);
    const tags = await tagsOf(token);
    await post(token, noteUrl('update', a!), { tagIds: tags.slice(0, 15).map((x) => x.id) });
    const res = await post(token, '/api/v1/journal/bulk_tag', {
      trades: [b, a].map((tr) => ({ accountId: tr!.accountId, tradeId: tr!.tradeId })),
      tagIds: [...tags.slice(10, 15), ...tags.slice(0, 1)].map((x) => x.id).concat(await extraTags(token, 6)),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `tagIds: trade ${a!.tradeId} of account ${a!.accountId} would carry 21 tags; a trade carries at most 20.`,
    );
    expect((await noteOf(token, b!)).tags).toEqual([]);
    expect((await noteOf(token, a!)).tags).toHaveLength(15);
  });
});

async function extraTags(token: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const res = await post(token, '/api/v1/journal/create_tag', { name: `Extra ${i}`, kind: 'emotion' });
    ids.push(res.json<{ data: TagItem }>().data.id);
  }
  return ids;
}

describe('another user', () => {
  it('cannot read or change A’s notes or tags, nor tag A’s trades, and A’s data stays as it was', async () => {
    const a = await trader();
    const [trade] = await tradesOf(a);
    const aTags = await tagsOf(a);
    const setup = tagNamed(aTags, 'Pullback');
    await post(a, noteUrl('update', trade!), { note: 'A only', rating: 2, tagIds: [setup.id] });
    const aNote = await noteOf(a, trade!);

    // B without trades.
    const b = await plainUser();
    expect((await get(b, noteUrl('get', trade!))).statusCode).toBe(404);
    expect((await post(b, noteUrl('update', trade!), { note: 'B was here' })).statusCode).toBe(404);
    expect((await post(b, `/api/v1/journal/edit_tag/${setup.id}`, { name: 'Stolen' })).statusCode).toBe(404);
    expect((await post(b, `/api/v1/journal/delete_tag/${setup.id}`)).statusCode).toBe(404);
    const bulk = await post(b, '/api/v1/journal/bulk_tag', {
      trades: [{ accountId: trade!.accountId, tradeId: trade!.tradeId }],
      tagIds: [(await tagsOf(b))[0]!.id],
    });
    expect(bulk.statusCode).toBe(404);
    expect((await tagsOf(b)).some((x) => x.id === setup.id)).toBe(false);

    // C with the same OANDA account synced: the same trade ids, but C's own (empty) journal, and A's tag is unknown.
    const c = await trader();
    expect(await noteOf(c, trade!)).toMatchObject({ note: '', rating: null, tags: [], updatedAt: null });
    const useA = await post(c, noteUrl('update', trade!), { note: 'C', tagIds: [setup.id] });
    expect(useA.statusCode).toBe(400);
    const bulkA = await post(c, '/api/v1/journal/bulk_tag', {
      trades: [{ accountId: trade!.accountId, tradeId: trade!.tradeId }],
      tagIds: [setup.id],
    });
    expect(bulkA.statusCode).toBe(400);
    expect(await noteOf(c, trade!)).toMatchObject({ note: '', tags: [] });
    const cNote = await post(c, noteUrl('update', trade!), { note: 'C own', rating: 5 });
    expect(cNote.statusCode).toBe(200);

    expect(await noteOf(a, trade!)).toEqual(aNote);
    expect(await tagsOf(a)).toEqual(aTags.map((x) => (x.id === setup.id ? { ...x, trades: 1 } : x)));
  });

  it('needs a signed-in user', async () => {
    const res = await t.call(undefined, { method: 'GET', url: '/api/v1/journal/get_tags' });
    expect(res.statusCode).toBe(401);
  });
});
