import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportUploadResponse, TagResponse, TradeListResponse } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import type * as TradeListModule from './trade-list.repository';
import { seededAccount, startLedgerServer, type LedgerServer } from '../../test/oanda-ledger-server';

/*
 * The trade list's cache (trade-list-cache.ts) through the routes, on the suite's database (SQLite, or PostgreSQL):
 * a repeated request is answered without computing the page again, and every writer of what the list shows (sync,
 * a sync that removes a trade, import confirm, note, rating, tags added, renamed and removed) makes the next
 * request compute it afresh, on this instance and on another one sharing the database.
 */

/** Pages computed by the trade list repository (every app of this file), counted around `pageOf`. */
const computed = vi.hoisted(() => ({ pages: 0 }));
vi.mock('./trade-list.repository', async (importOriginal) => {
  const original = await importOriginal<typeof TradeListModule>();
  return {
    ...original,
    createTradeListRepository: (...args: Parameters<typeof original.createTradeListRepository>) => {
      const repository = original.createTradeListRepository(...args);
      return {
        ...repository,
        pageOf: (...page: Parameters<typeof repository.pageOf>) => {
          computed.pages += 1;
          return repository.pageOf(...page);
        },
      };
    },
  };
});

const A = '101-004-1000001-001';
const MT5 = readFileSync(new URL('../import/parse/fixtures/mt5-report.html', import.meta.url));

let ledger: LedgerServer;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
/** Two instances on one database, as behind a load balancer. */
let one: TestApp;
let two: TestApp;
let token: string;

const LIST = '/api/v1/trade/get_trade_history?page=1&limit=5';

async function list(t: TestApp, url = LIST) {
  const res = await t.call(token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return { body: res.json<TradeListResponse>(), text: res.body };
}

/** The list after a write: computed once more, and once only (a second request is served from the cache). */
async function recomputed(t: TestApp = one) {
  const before = computed.pages;
  const first = await list(t);
  expect(computed.pages - before, 'the page is computed after the write').toBe(1);
  const again = await list(t);
  expect(computed.pages - before, 'and only once').toBe(1);
  expect(again.text).toBe(first.text);
  return first.body;
}

async function post(url: string, payload: object) {
  const res = await one.call(token, { method: 'POST', url, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}
const get = async (url: string) => {
  const res = await one.call(token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

beforeAll(async () => {
  ledger = await startLedgerServer([seededAccount(A, 12, 2)]);
  testDb = await createTestDb();
  // One set of secrets: a token signed by one instance is good on the other, the OANDA token readable by both.
  const env = {
    OANDA_PRACTICE_URL: ledger.url,
    OANDA_LIVE_URL: 'http://127.0.0.1:9',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  const oanda = { oanda: { retries: 1, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 3_000 } };
  one = await createTestApp(env, { db: testDb.db, ...oanda });
  two = await createTestApp(env, { db: testDb.db, ...oanda });
  token = (await one.oandaUser({ oanda: { accessToken: ledger.token } })).token;
});
afterAll(async () => {
  await one.close();
  await two.close();
  await testDb.close();
  await ledger.stop();
});

describe('the trade list cache', () => {
  let newest: { accountId: string; tradeId: string };
  beforeEach(async () => {
    const top = (await list(one)).body.data[0]!;
    newest = { accountId: top.accountId, tradeId: top.tradeId };
  });

  it('serves a repeated request from the cache, the same text, without computing the page again', async () => {
    // beforeEach asked for the page already.
    const before = computed.pages;
    const first = (await list(one)).body;
    expect(first.total).toBe(14);
    expect(computed.pages).toBe(before);
    // The same request written otherwise (order of parameters, the default platform spelled out) is the same page.
    const same = await list(one, '/api/v1/trade/get_trade_history?limit=5&platform=oanda&page=1');
    expect(same.body).toEqual(first);
    expect(computed.pages).toBe(before);
    // Another page, or another filter, is another entry.
    const second = await list(one, '/api/v1/trade/get_trade_history?page=2&limit=5');
    expect(second.body.data.map((r) => r.tradeId)).not.toContain(first.data[0]!.tradeId);
    expect(computed.pages).toBe(before + 1);
    const closed = await list(one, '/api/v1/trade/get_trade_history?page=1&limit=5&state=CLOSED');
    expect(closed.body.total).toBe(12);
    expect(computed.pages).toBe(before + 2);
  });

  it('keeps serving the cached page after a sync that brings nothing new', async () => {
    await get('/api/v1/account/sync_account');
    await get('/api/v1/trade/sync_trade');
    const before = computed.pages;
    await list(one);
    expect(computed.pages).toBe(before);
  });

  it('computes afresh after a sync that brings a trade, and after one that removes it', async () => {
    const opened = ledger.open(A);
    await get('/api/v1/trade/sync_trade');
    const after = await recomputed();
    expect(after.total).toBe(15);
    expect(after.data[0]!.tradeId).toBe(opened.id);

    const account = ledger.accounts.get(A)!;
    account.trades.splice(
      account.trades.findIndex((tr) => tr.id === opened.id),
      1,
    );
    account.lastTransactionID += 1;
    const res = await get('/api/v1/trade/sync_trade');
    expect(res.json<{ message: string }>().message).toContain('1 removed');
    const gone = await recomputed();
    expect(gone.total).toBe(14);
    expect(gone.data.map((r) => r.tradeId)).not.toContain(opened.id);
  });

  it('computes afresh after a note, then after a rating alone, on every instance', async () => {
    await recomputed(two);
    const url = `/api/v1/journal/update_trade_note/${newest.accountId}/${newest.tradeId}`;
    await post(url, { note: 'waited for the retest', rating: null, tagIds: [] });
    expect((await recomputed(two)).data[0]).toMatchObject({ note: 'waited for the retest', rating: null });
    expect((await recomputed(one)).data[0]).toMatchObject({ note: 'waited for the retest', rating: null });
    await post(url, { note: 'waited for the retest', rating: 4, tagIds: [] });
    expect((await recomputed(two)).data[0]).toMatchObject({ note: 'waited for the retest', rating: 4 });
  });

  it('computes afresh after tags are added, renamed and deleted', async () => {
    const tag = (await post('/api/v1/journal/create_tag', { name: 'Cache test', kind: 'setup' })).json<TagResponse>()
      .data;
    // A new tag is on no trade: the list stays as it was.
    const before = computed.pages;
    await list(one);
    expect(computed.pages).toBe(before);
    await post('/api/v1/journal/bulk_tag', { trades: [newest], tagIds: [tag.id] });
    expect((await recomputed()).data[0]!.tags).toEqual([{ id: tag.id, name: 'Cache test', kind: 'setup' }]);
    await post(`/api/v1/journal/edit_tag/${tag.id}`, { name: 'Cache test renamed' });
    expect((await recomputed()).data[0]!.tags).toEqual([{ id: tag.id, name: 'Cache test renamed', kind: 'setup' }]);
    await post(`/api/v1/journal/delete_tag/${tag.id}`, {});
    expect((await recomputed()).data[0]!.tags).toEqual([]);
  });

  it('computes afresh after an import is confirmed', async () => {
    const url = '/api/v1/trade/get_trade_history?page=1&limit=5&platform=metatrader';
    expect((await list(one, url)).body.total).toBe(0);
    const data = new FormData();
    data.append('file', new Blob([Buffer.from(MT5)]), 'ReportHistory-51234567.html');
    const encoded = new Response(data);
    const upload = await one.call(token, {
      method: 'POST',
      url: '/api/v1/import/upload',
      payload: Buffer.from(await encoded.arrayBuffer()),
      headers: { 'content-type': encoded.headers.get('content-type')! },
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const before = computed.pages;
    await post(`/api/v1/import/confirm/${upload.json<ImportUploadResponse>().importId}`, {});
    expect((await list(two, url)).body.total).toBe(11);
    expect((await list(one, url)).body.total).toBe(11);
    expect(computed.pages).toBe(before + 2);
  });
});
