import { afterEach, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import type { TagItem, TradeItem, TradeNote } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { oandaInfoRecord } from '../../test/oanda-user';
import type { Db } from '../../db/client';

/*
 * Notes and tags belong to the user, not to the synced rows: a full re-sync and a change of the OANDA configuration
 * keep every one of them, once; deleting the user takes them along. Runs against the OANDA simulator, on SQLite and
 * (with PIPSENSE_TEST_PG_URL) PostgreSQL.
 */
const NOW = Date.UTC(2025, 9, 3, 14, 30);

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

async function setUp(): Promise<{ s: OandaSim; t: TestApp; db: Db }> {
  const s = await startOandaSim({ accounts: 2, tradesPerAccount: 40, now: () => NOW });
  running.push(s);
  const database = await createTestDb();
  running.push(database);
  const t = await createTestApp(
    { OANDA_PRACTICE_URL: s.url, OANDA_LIVE_URL: 'http://127.0.0.1:9' },
    { db: database.db, oanda: { retries: 2, baseDelayMs: 1, maxDelayMs: 4, timeoutMs: 5_000 } },
  );
  running.push(t);
  return { s, t, db: database.db };
}

describe('the journal across re-syncs', () => {
  it('keeps every note and tag through a full re-sync and OANDA configuration changes, never duplicated', async () => {
    const { s, t, db } = await setUp();
    const { token } = await t.oandaUser({ oanda: { accessToken: s.token } });
    const get = async <T>(url: string): Promise<T> => {
      const res = await t.call(token, { method: 'GET', url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json<{ data: T }>().data;
    };
    const post = async (url: string, payload: object) => {
      const res = await t.call(token, { method: 'POST', url, payload });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res;
    };

    const trades = await get<TradeItem[]>('/api/v1/trade/get_trade_history?page=1&limit=100');
    expect(trades).toHaveLength(80);
    const byAccount = s.accountIds.map((id) => trades.filter((tr) => tr.accountId === id));
    const annotated = [...byAccount[0]!.slice(0, 3), ...byAccount[1]!.slice(0, 3)];
    const tags = await get<TagItem[]>('/api/v1/journal/get_tags');
    const tag = (name: string) => tags.find((x) => x.name === name)!.id;

    for (const [i, tr] of annotated.entries())
      await post(`/api/v1/journal/update_trade_note/${tr.accountId}/${tr.tradeId}`, {
        note: `Trade ${tr.tradeId}: ${'why I took it '.repeat(i + 1)}`,
        rating: (i % 5) + 1,
        tagIds: i % 2 === 0 ? [tag('Breakout'), tag('FOMO')] : [tag('Calm')],
      });
    const bulk = [...byAccount[0]!.slice(2, 7), ...byAccount[1]!.slice(2, 7)];
    await post('/api/v1/journal/bulk_tag', {
      trades: bulk.map(({ accountId, tradeId }) => ({ accountId, tradeId })),
      tagIds: [tag('Trend following')],
    });

    const touched = [...new Map([...annotated, ...bulk].map((tr) => [`${tr.accountId}/${tr.tradeId}`, tr])).values()];
    const snapshot = async () => ({
      notes: await Promise.all(
        touched.map((tr) => get<TradeNote>(`/api/v1/journal/get_trade_note/${tr.accountId}/${tr.tradeId}`)),
      ),
      tags: await get<TagItem[]>('/api/v1/journal/get_tags'),
      rows: {
        notes: (await db.kysely.selectFrom('trade_notes').select('trade_id').execute()).length,
        tradeTags: (await db.kysely.selectFrom('trade_tags').select('trade_id').execute()).length,
        tags: (await db.kysely.selectFrom('journal_tags').select('id').execute()).length,
      },
    });
    const before = await snapshot();
    expect(before.rows).toEqual({ notes: 6, tradeTags: 3 * 2 + 3 * 1 + 10, tags: 15 });
    expect(before.tags.find((x) => x.name === 'Trend following')!.trades).toBe(10);
    expect(before.tags.find((x) => x.name === 'FOMO')!.trades).toBe(3);
    expect(before.notes.filter((n) => n.note !== '')).toHaveLength(6);

    // A full re-sync reads the whole history again.
    const full = await t.call(token, { method: 'GET', url: '/api/v1/trade/sync_trade?full=true' });
    expect(full.statusCode, full.body).toBe(200);
    expect(await snapshot()).toEqual(before);

    // The OANDA configuration changes to one account, then back to every account, each followed by a sync.
    for (const accountId of [s.accountIds[1]!, '']) {
      const saved = await t.call(token, {
        method: 'POST',
        url: '/api/v1/account/update_info',
        payload: oandaInfoRecord({ oanda: { accessToken: s.token, accountId } }),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      for (const url of ['/api/v1/account/sync_account', '/api/v1/trade/sync_trade?full=true']) {
        const res = await t.call(token, { method: 'GET', url });
        expect(res.statusCode, res.body).toBe(200);
      }
      expect(await snapshot()).toEqual(before);
    }
    expect(await get<TradeItem[]>('/api/v1/trade/get_trade_history?page=1&limit=100')).toHaveLength(80);
  });

  it("goes with the user's data: deleting the user deletes their notes and tags, and only theirs", async () => {
    const { s, t, db } = await setUp();
    const users = [];
    for (const prefix of ['gone', 'kept']) {
      const { token, username } = await t.oandaUser({ oanda: { accessToken: s.token } }, prefix);
      const [tr] = (
        await t.call(token, { method: 'GET', url: '/api/v1/trade/get_trade_history?page=1&limit=1' })
      ).json<{ data: TradeItem[] }>().data;
      const tags = (await t.call(token, { method: 'GET', url: '/api/v1/journal/get_tags' })).json<{
        data: TagItem[];
      }>().data;
      const res = await t.call(token, {
        method: 'POST',
        url: `/api/v1/journal/update_trade_note/${tr!.accountId}/${tr!.tradeId}`,
        payload: { note: `${prefix} note`, rating: 3, tagIds: [tags[0]!.id] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const row = await db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow();
      users.push(row.id);
    }
    const [gone, kept] = users as [string, string];
    const count = async (table: 'trade_notes' | 'trade_tags' | 'journal_tags' | 'journal_starter_tags', id: string) =>
      (await db.kysely.selectFrom(table).select('user_id').where('user_id', '=', id).execute()).length;

    await db.kysely.deleteFrom('users').where('id', '=', gone).execute();
    for (const table of ['trade_notes', 'trade_tags', 'journal_tags', 'journal_starter_tags'] as const) {
      expect(await count(table, gone), table).toBe(0);
      expect(await count(table, kept), table).toBeGreaterThan(0);
    }
  });
});
