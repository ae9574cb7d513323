import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { DEMO_TOKEN, startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import { createTestApp, type TestApp } from '../test/harness';
import { encodeUtf16le, mt5Report } from '../test/metatrader-reports';
import { multipartForm } from './attack-support';

/*
 * User B, signed in, goes after user A's data by id and by parameter: every read, change, delete or query of A's
 * chats, conversations, trades, accounts, notes, tags, day entries, imports, CSV mappings, metrics, sync status and
 * settings answers 404/403 (or, for a list filter, B's own empty list), and A's data reads the same afterwards.
 */

let sim: OandaSim;
let t: TestApp;
type User = Awaited<ReturnType<TestApp['user']>>;
let a: User;
let b: User;
const ids = { chatId: '', tagId: '', accountId: '', tradeId: '', importId: '', mappingId: '', day: '', month: '' };

const ok = async (token: string, options: InjectOptions) => {
  const res = await t.call(token, options);
  expect(res.statusCode, `${options.method} ${String(options.url as string)}: ${res.body}`).toBe(200);
  return res.json<Record<string, unknown>>();
};

beforeAll(async () => {
  sim = await startOandaSim({ accounts: 2, tradesPerAccount: 25, historyDays: 30, seed: 5 });
  t = await createTestApp({ OANDA_PRACTICE_URL: sim.url }, { oanda: { retries: 0 } });
  a = await t.oandaUser({ oanda: { accessToken: DEMO_TOKEN } }, 'alice');
  // B is connected to OANDA too (nothing synced), so no route can refuse B for want of a connection first.
  b = await t.oandaUser({ oanda: { accessToken: DEMO_TOKEN }, sync: 'none' }, 'bob');

  const trades = await ok(a.token, { method: 'GET', url: '/api/v1/trade/get_trade_history?limit=100&state=CLOSED' });
  const trade = (trades.data as { accountId: string; tradeId: string; closeTime: string }[])[0]!;
  Object.assign(ids, { accountId: trade.accountId, tradeId: trade.tradeId });
  ids.day = trade.closeTime.slice(0, 10);
  ids.month = ids.day.slice(0, 7);
  const tag = await ok(a.token, {
    method: 'POST',
    url: '/api/v1/journal/create_tag',
    payload: { name: 'Alice setup', kind: 'setup' },
  });
  ids.tagId = (tag.data as { id: string }).id;
  await ok(a.token, {
    method: 'POST',
    url: `/api/v1/journal/update_trade_note/${ids.accountId}/${ids.tradeId}`,
    payload: { note: 'Alice private note', rating: 4, tagIds: [ids.tagId] },
  });
  await ok(a.token, {
    method: 'POST',
    url: `/api/v1/journal/update_day/${ids.day}`,
    payload: { note: 'Alice day entry', mood: 3 },
  });
  const chat = await ok(a.token, {
    method: 'POST',
    url: '/api/v1/chat/create_chat',
    payload: { title: 'Alice chat', topic: 'trading' },
  });
  ids.chatId = (chat.data as { _id: string })._id;
  await ok(a.token, {
    method: 'POST',
    url: '/api/v1/query/oanda/trade',
    payload: { query: 'How did I do this month?', chatId: ids.chatId, mode: 'demo' },
  });
  const report = mt5Report({ positions: 6, seed: 9 });
  const form = await multipartForm({}, { bytes: encodeUtf16le(report.html), name: 'ReportHistory.html' });
  const upload = await ok(a.token, { method: 'POST', url: '/api/v1/import/upload', ...form });
  ids.importId = upload.importId as string;
  const mapping = await ok(a.token, {
    method: 'POST',
    url: '/api/v1/import/mappings',
    payload: {
      name: 'Alice broker',
      columns: {
        symbol: 'Symbol',
        side: 'Type',
        volume: 'Lots',
        openTime: 'Open',
        openPrice: 'Open price',
        closeTime: 'Close',
        closePrice: 'Close price',
        profit: 'Profit',
      },
    },
  });
  ids.mappingId = (mapping.data as { id: string }).id;
  await ok(a.token, { method: 'POST', url: '/api/v1/sync/schedule', payload: { interval: '5m' } });
  await ok(a.token, { method: 'POST', url: '/api/v1/account/update_time_zone', payload: { timeZone: 'Asia/Tokyo' } });
  for (const id of Object.values(ids)) expect(id).not.toBe('');
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

/** Everything A can read, with the fields that change by themselves (request ids, the clock) left out. */
async function snapshotOf(token: string): Promise<Record<string, unknown>> {
  const urls = [
    '/api/v1/auth/me',
    '/api/v1/account/get_info',
    '/api/v1/account/get_time_zone',
    '/api/v1/account/get_accounts?limit=100',
    '/api/v1/trade/get_trade_history?limit=100',
    '/api/v1/trade/export_trades',
    '/api/v1/journal/get_tags',
    `/api/v1/journal/get_trade_note/${ids.accountId}/${ids.tradeId}`,
    `/api/v1/journal/get_calendar?month=${ids.month}`,
    `/api/v1/journal/get_day/${ids.day}`,
    '/api/v1/chat/get_chats?topic=trading',
    `/api/v1/conversation/get_conversations/${ids.chatId}`,
    '/api/v1/import/mappings',
    '/api/v1/sync/status',
    '/api/v1/dashboard/metrics',
  ];
  const out: Record<string, unknown> = {};
  for (const url of urls) {
    const res = await t.call(token, { method: 'GET', url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    out[url] = url.includes('export_trades')
      ? res.body
      : JSON.parse(res.body, (key, value: unknown) =>
          ['now', 'requestId', 'nextDueAt'].includes(key) ? undefined : value,
        );
  }
  return out;
}

/** B's attempts on A's things by id: each must be refused as not found (or forbidden), never done. */
const byId = (): { name: string; request: InjectOptions }[] => [
  {
    name: "read A's conversation",
    request: { method: 'GET', url: `/api/v1/conversation/get_conversations/${ids.chatId}` },
  },
  {
    name: "rename A's chat",
    request: { method: 'POST', url: `/api/v1/chat/edit_chat/${ids.chatId}`, payload: { title: 'Bob was here' } },
  },
  { name: "delete A's chat", request: { method: 'GET', url: `/api/v1/chat/delete_chat/${ids.chatId}` } },
  ...(['trade', 'account'] as const).map((kind) => ({
    name: `ask in A's chat (${kind})`,
    request: {
      method: 'POST' as const,
      url: `/api/v1/query/oanda/${kind}`,
      payload: { query: 'Show me every trade', chatId: ids.chatId, mode: 'demo' },
    },
  })),
  {
    name: "ask in A's chat, streamed",
    request: {
      method: 'POST',
      url: '/api/v1/query/oanda/trade',
      headers: { accept: 'text/event-stream' },
      payload: { query: 'Show me every trade', chatId: ids.chatId, mode: 'demo' },
    },
  },
  {
    name: "ask in A's chat (candle)",
    request: {
      method: 'POST',
      url: '/api/v1/query/oanda/candle',
      payload: { query: 'EUR/USD?', chatId: ids.chatId, instrument: 'EUR_USD', granularity: 'M5' },
    },
  },
  {
    name: "read A's trade note",
    request: { method: 'GET', url: `/api/v1/journal/get_trade_note/${ids.accountId}/${ids.tradeId}` },
  },
  {
    name: "write A's trade note",
    request: {
      method: 'POST',
      url: `/api/v1/journal/update_trade_note/${ids.accountId}/${ids.tradeId}`,
      payload: { note: 'Bob was here', rating: 1, tagIds: [] },
    },
  },
  {
    name: "tag A's trade with A's tag",
    request: {
      method: 'POST',
      url: '/api/v1/journal/bulk_tag',
      payload: { trades: [{ accountId: ids.accountId, tradeId: ids.tradeId }], tagIds: [ids.tagId] },
    },
  },
  {
    name: "rename A's tag",
    request: {
      method: 'POST',
      url: `/api/v1/journal/edit_tag/${ids.tagId}`,
      payload: { name: 'Bob', color: '#000000' },
    },
  },
  { name: "delete A's tag", request: { method: 'POST', url: `/api/v1/journal/delete_tag/${ids.tagId}`, payload: {} } },
  {
    name: "confirm A's import",
    request: { method: 'POST', url: `/api/v1/import/confirm/${ids.importId}`, payload: {} },
  },
  { name: "cancel A's import", request: { method: 'POST', url: `/api/v1/import/cancel/${ids.importId}`, payload: {} } },
  { name: "delete A's CSV mapping", request: { method: 'DELETE', url: `/api/v1/import/mappings/${ids.mappingId}` } },
];

describe("user B and user A's data", () => {
  it('refuses every attempt by id with 404/403, and A reads the same data afterwards', async () => {
    const before = await snapshotOf(a.token);
    // A has something in each place B goes after.
    expect(JSON.stringify(before)).toContain('Alice private note');
    expect(JSON.stringify(before)).toContain('Alice chat');
    const wrong: string[] = [];
    for (const { name, request } of byId()) {
      const res = await t.call(b.token, request);
      if (![403, 404].includes(res.statusCode)) wrong.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      for (const secret of ['Alice private note', 'Alice chat', 'Alice setup', 'Alice broker'])
        if (res.body.includes(secret)) wrong.push(`${name}: the answer shows "${secret}"`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshotOf(a.token)).toEqual(before);
    // A's import preview is still waiting for A (B could neither confirm nor cancel it).
    await ok(a.token, { method: 'POST', url: `/api/v1/import/cancel/${ids.importId}`, payload: {} });
  });

  it("shows B none of A's data through list filters and parameters", async () => {
    const filters = [
      `/api/v1/trade/get_trade_history?limit=100&accountId=${ids.accountId}`,
      `/api/v1/trade/get_trade_history?limit=100&tag=${ids.tagId}`,
      '/api/v1/trade/get_trade_history?limit=100&q=Alice',
      `/api/v1/trade/export_trades?accountId=${ids.accountId}`,
      `/api/v1/dashboard/metrics?accountId=${ids.accountId}`,
      `/api/v1/dashboard/metrics?tag=${ids.tagId}`,
      '/api/v1/account/get_accounts?limit=100',
      '/api/v1/journal/get_tags',
      `/api/v1/journal/get_calendar?month=${ids.month}`,
      `/api/v1/journal/get_day/${ids.day}`,
      '/api/v1/chat/get_chats?topic=trading',
      '/api/v1/import/mappings',
      '/api/v1/sync/status',
      '/api/v1/account/get_info',
      '/api/v1/account/get_time_zone',
    ];
    for (const url of filters) {
      const res = await t.call(b.token, { method: 'GET', url });
      const body = res.body;
      // A filter naming A's tag is refused as for a tag that does not exist; the rest answer with B's own data.
      if (res.statusCode === 400)
        expect(res.json<{ message: string }>().message, `${url}: ${body}`).toMatch(
          /not one of your tags|no tag .* in your journal/,
        );
      else expect([200, 403, 404], `${url}: ${body}`).toContain(res.statusCode);
      for (const secret of [
        'Alice private note',
        'Alice chat',
        'Alice setup',
        'Alice broker',
        'Alice day entry',
        'Asia/Tokyo',
      ])
        expect(body, `${url} shows "${secret}"`).not.toContain(secret);
      if (res.statusCode !== 200) continue;
      if (url.includes('get_trade_history') || url.includes('get_accounts'))
        expect(res.json<{ total: number }>().total, url).toBe(0);
      if (url.includes('export_trades')) expect(body.trim().split('\n'), url).toHaveLength(1);
      if (url.includes('dashboard/metrics')) expect(body, url).not.toContain(ids.tradeId);
      if (url.includes('sync/status'))
        expect(res.json<{ data: { interval: string } }>().data.interval, url).not.toBe('5m');
      if (url.includes('get_calendar'))
        expect(
          res
            .json<{ data: { days: { trades: number; hasEntry: boolean }[] } }>()
            .data.days.filter((d) => d.trades > 0 || d.hasEntry),
        ).toEqual([]);
    }
  });

  it("does not let B read a report with A's saved CSV mapping", async () => {
    // A file that A's mapping reads: with it, the upload would make a preview.
    const csv =
      'Symbol,Type,Lots,Open,Open price,Close,Close price,Profit\nEURUSD,buy,0.10,2025-10-01 10:00,1.1000,2025-10-01 11:00,1.1010,10.00\n';
    const upload = (token: string, mappingId: string) =>
      multipartForm({ mappingId }, { bytes: new TextEncoder().encode(csv), name: 'trades.csv' }).then((form) =>
        t.call(token, { method: 'POST', url: '/api/v1/import/upload', ...form }),
      );
    const mine = await upload(a.token, ids.mappingId);
    expect(mine.statusCode, mine.body).toBe(200);
    await ok(a.token, { method: 'POST', url: `/api/v1/import/cancel/${mine.json<{ importId: string }>().importId}` });

    const theirs = await upload(b.token, ids.mappingId);
    const none = await upload(b.token, '00000000-0000-4000-8000-000000000000');
    expect([400, 403, 404], theirs.body).toContain(theirs.statusCode);
    // The same answer as for a mapping that does not exist at all.
    expect(theirs.statusCode).toBe(none.statusCode);
    expect(theirs.json<{ code: string }>().code).toBe(none.json<{ code: string }>().code);
    expect(theirs.body).not.toContain('Alice broker');
  });

  it("keeps B's own changes on B's side: a tag, a day entry and settings of B leave A's as they were", async () => {
    const before = await snapshotOf(a.token);
    await ok(b.token, {
      method: 'POST',
      url: '/api/v1/journal/create_tag',
      payload: { name: 'Alice setup', kind: 'setup' },
    });
    await ok(b.token, {
      method: 'POST',
      url: `/api/v1/journal/update_day/${ids.day}`,
      payload: { note: 'Bob day', mood: 1 },
    });
    await ok(b.token, { method: 'POST', url: '/api/v1/sync/schedule', payload: { interval: 'off' } });
    await ok(b.token, {
      method: 'POST',
      url: '/api/v1/account/update_time_zone',
      payload: { timeZone: 'America/New_York' },
    });
    await ok(b.token, {
      method: 'POST',
      url: '/api/v1/account/update_info',
      payload: {
        default_ai_platfrom: 'vertexai',
        default_trading_platfrom: '',
        oanda: { accessToken: '', accountId: '', mode: '' },
      },
    });
    expect(await snapshotOf(a.token)).toEqual(before);
  });
});
