import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountItem, CandlesResponse, TradeItem } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import { makeTrade, seededAccount, startLedgerServer, type LedgerServer } from '../../test/oanda-ledger-server';
import { createUserConcurrency } from '../../lib/user-concurrency';
import { jwtPayload } from '../../security/attack-support';
import { until } from '../../test/until';
import { CANDLE_CONCURRENCY } from './trading.service';

const A = '101-004-1000001-001';
const B = '101-004-1000001-002';

let ledger: LedgerServer;
let t: TestApp;
/** The app's per-user limit of candle requests, the default one, held here so a test can see who waits. */
const candleLimit = createUserConcurrency(CANDLE_CONCURRENCY);

beforeAll(async () => {
  // One OANDA stand-in for the whole file (its address goes into env); each test seeds it afresh.
  ledger = await startLedgerServer([]);
  t = await createTestApp(
    { OANDA_PRACTICE_URL: ledger.url, OANDA_LIVE_URL: 'http://127.0.0.1:9' },
    { oanda: { retries: 2, baseDelayMs: 1, maxDelayMs: 4, timeoutMs: 3_000 }, userLimits: { candles: candleLimit } },
  );
});
afterAll(async () => {
  await t.close();
  await ledger.stop();
});
afterEach(() => {
  ledger.faults.length = 0;
  ledger.requests.length = 0;
});

function seed(...accounts: ReturnType<typeof seededAccount>[]) {
  ledger.accounts.clear();
  for (const account of accounts) ledger.accounts.set(account.id, account);
}

async function connectedUser(oanda: { accessToken?: string; accountId?: string; mode?: 'demo' | 'live' } = {}) {
  return t.oandaUser({ oanda: { accessToken: ledger.token, ...oanda }, sync: 'none' });
}

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });

async function allTrades(token: string): Promise<TradeItem[]> {
  const out: TradeItem[] = [];
  for (let page = 1; ; page += 1) {
    const res = await get(token, `/api/v1/trade/get_trade_history?page=${page}&limit=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: TradeItem[]; pages: number }>();
    out.push(...body.data);
    if (page >= body.pages) return out;
  }
}

/** What the broker holds, as comparable tuples. */
function brokerSet() {
  return [...ledger.accounts.values()]
    .flatMap((a) =>
      a.trades.map((tr) =>
        [a.id, tr.id, tr.state, tr['currentUnits'], tr['realizedPL'], tr['unrealizedPL'] ?? null, tr['financing']].join(
          '|',
        ),
      ),
    )
    .sort();
}
const storedSet = (trades: TradeItem[]) =>
  trades
    .map((tr) =>
      [tr.accountId, tr.tradeId, tr.state, tr.currentUnits, tr.realizedPL, tr.unrealizedPL, tr.financing].join('|'),
    )
    .sort();

describe('without an OANDA connection', () => {
  it('asks the user to connect OANDA first, and lists are empty with one page', async () => {
    const user = await t.user();
    for (const url of [
      '/api/v1/trade/sync_trade',
      '/api/v1/account/sync_account',
      '/api/v1/trade/candles?instrument=EUR_USD',
    ]) {
      const res = await get(user.token, url);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        code: 'OANDA_NOT_CONFIGURED',
        message: 'Connect your OANDA account in Settings → Trading Platforms first.',
      });
    }
    const trades = await get(user.token, '/api/v1/trade/get_trade_history?page=1&limit=10');
    expect(trades.json()).toMatchObject({ success: true, data: [], pages: 1, total: 0 });
    const accounts = await get(user.token, '/api/v1/account/get_accounts');
    expect(accounts.json()).toMatchObject({ success: true, data: [], pages: 1, total: 0 });
  });

  it('requires a signed-in user', async () => {
    expect((await get('', '/api/v1/trade/get_trade_history')).statusCode).toBe(401);
    expect((await get('', '/api/v1/account/sync_account')).statusCode).toBe(401);
  });
});

describe('account sync', () => {
  it('stores every account the token sees with its summary, and versions real changes only', async () => {
    seed(seededAccount(A, 3, 2), {
      ...seededAccount(B, 0, 0),
      currency: 'EUR',
      alias: 'EUR hedge book',
      balance: '5000.0000',
    });
    const user = await connectedUser();
    const first = await get(user.token, '/api/v1/account/sync_account');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ success: true, message: 'Synced 2 accounts: 2 new, 0 updated' });

    const list = await get(user.token, '/api/v1/account/get_accounts?page=1&limit=10');
    const body = list.json<{ data: AccountItem[]; pages: number; total: number }>();
    expect(body.pages).toBe(1);
    expect(body.total).toBe(2);
    const eur = body.data.find((a) => a.oandaAccountId === B)!;
    expect(eur).toMatchObject({
      alias: 'EUR hedge book',
      currency: 'EUR',
      balance: '5000.0000',
      NAV: '5000.0000',
      mode: 'demo',
      version: 0,
    });
    expect(eur.openTradeCount).toBe(0);
    const usd = body.data.find((a) => a.oandaAccountId === A)!;
    expect(usd).toMatchObject({ alias: null, openTradeCount: 2, pendingOrderCount: 4, hedgingEnabled: false });

    const again = await get(user.token, '/api/v1/account/sync_account');
    expect(again.json().message).toBe('Synced 2 accounts: 0 new, 0 updated');
    ledger.accounts.get(B)!.balance = '5012.3456';
    const changed = await get(user.token, '/api/v1/account/sync_account');
    expect(changed.json().message).toBe('Synced 2 accounts: 0 new, 1 updated');
    const after = (await get(user.token, '/api/v1/account/get_accounts')).json<{ data: AccountItem[] }>().data;
    expect(after.find((a) => a.oandaAccountId === B)).toMatchObject({ balance: '5012.3456', version: 1 });
    expect(after.find((a) => a.oandaAccountId === A)?.version).toBe(0);
  });

  it('syncs only the configured account when one is set', async () => {
    seed(seededAccount(A, 1, 0), seededAccount(B, 1, 0));
    const user = await connectedUser({ accountId: B });
    const res = await get(user.token, '/api/v1/account/sync_account');
    expect(res.json().message).toBe('Synced 1 account: 1 new, 0 updated');
    expect(ledger.requests.some((r) => r.path === '/v3/accounts')).toBe(false);
  });
});

describe('trade sync', () => {
  it('reads the whole history the first time and lists it newest first, decimals exact', async () => {
    seed(seededAccount(A, 1190, 13), seededAccount(B, 5, 2, 50));
    const user = await connectedUser();
    const res = await get(user.token, '/api/v1/trade/sync_trade');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Synced 1,210 trades from 2 accounts: 1,210 new, 0 updated',
      data: { accounts: 2, trades: 1210, created: 1210, updated: 0, removed: 0, full: true },
    });
    // Every trades request asked for the whole history in pages of 500.
    const pages = ledger.requests.filter((r) => r.path.endsWith(`${A}/trades`));
    expect(pages.map((r) => r.query)).toEqual([
      { state: 'ALL', count: '500' },
      { state: 'ALL', count: '500', beforeID: expect.any(String) },
      { state: 'ALL', count: '500', beforeID: expect.any(String) },
      { state: 'ALL', count: '500', beforeID: expect.any(String) },
    ]);

    const first = await get(user.token, '/api/v1/trade/get_trade_history?page=1&limit=10');
    const body = first.json<{ data: TradeItem[]; pages: number; total: number }>();
    expect(body.pages).toBe(121);
    expect(body.total).toBe(1210);
    const times = body.data.map((tr) => tr.openTime);
    expect([...times].sort().reverse()).toEqual(times);

    const stored = await allTrades(user.token);
    expect(storedSet(stored)).toEqual(brokerSet());
    const wire = ledger.accounts.get(A)!.trades.find((tr) => tr.state === 'OPEN')!;
    const mine = stored.find((tr) => tr.tradeId === wire.id)!;
    expect(mine).toMatchObject({
      accountId: A,
      mode: 'demo',
      instrument: wire['instrument'],
      price: wire['price'],
      initialUnits: wire['initialUnits'],
      unrealizedPL: '1.2345',
      closeTime: null,
      stopLossPrice: (wire['stopLossOrder'] as { price: string }).price,
      takeProfitPrice: (wire['takeProfitOrder'] as { price: string }).price,
    });
    const closed = stored.find((tr) => tr.state === 'CLOSED')!;
    expect(closed.unrealizedPL).toBeNull();
    expect(closed.closeTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
  });

  it('afterwards reads only what changed: new trades, open trades, trades closed since', async () => {
    seed(seededAccount(A, 40, 5));
    const user = await connectedUser();
    await get(user.token, '/api/v1/trade/sync_trade');

    ledger.requests.length = 0;
    const quiet = await get(user.token, '/api/v1/trade/sync_trade');
    expect(quiet.json().message).toBe('Synced 45 trades from 1 account: 0 new, 0 updated');
    expect(quiet.json().data.full).toBe(false);
    // Nothing happened at OANDA: summary and open trades only, no history paging.
    expect(ledger.requests.map((r) => r.path.split('/').at(-1))).toEqual(['accounts', 'summary', 'openTrades']);

    const openIds = ledger.accounts
      .get(A)!
      .trades.filter((tr) => tr.state === 'OPEN')
      .map((tr) => tr.id);
    ledger.open(A);
    ledger.open(A);
    ledger.close(A, openIds[0]!);
    ledger.touch(A, openIds[1]!, { financing: '-3.1416' });
    ledger.requests.length = 0;
    const res = await get(user.token, '/api/v1/trade/sync_trade');
    expect(res.json().message).toBe('Synced 47 trades from 1 account: 2 new, 2 updated');
    expect(ledger.requests.some((r) => r.query['beforeID'])).toBe(false);
    const stored = await allTrades(user.token);
    expect(storedSet(stored)).toEqual(brokerSet());
    expect(stored.find((tr) => tr.tradeId === openIds[0])).toMatchObject({
      state: 'CLOSED',
      unrealizedPL: null,
      realizedPL: '12.3400',
    });
  });

  it('re-reads everything with full=true and drops what OANDA no longer has', async () => {
    seed(seededAccount(A, 30, 3));
    const user = await connectedUser();
    await get(user.token, '/api/v1/trade/sync_trade');
    ledger.accounts.get(A)!.trades.splice(5, 1);
    const res = await get(user.token, '/api/v1/trade/sync_trade?full=true');
    expect(res.json()).toMatchObject({
      message: 'Synced 32 trades from 1 account: 0 new, 0 updated, 1 removed',
      data: { full: true },
    });
    expect(storedSet(await allTrades(user.token))).toEqual(brokerSet());
  });

  it('removes an open trade OANDA no longer knows, and orders equal open times by numeric id', async () => {
    const account = seededAccount(A, 0, 0);
    const same = '2025-10-01T07:00:00.000000000Z';
    account.trades.push(
      { ...makeTrade(999, 'CLOSED'), openTime: same },
      { ...makeTrade(1000, 'CLOSED'), openTime: same },
      makeTrade(1003, 'OPEN'),
    );
    account.lastTransactionID = 1005;
    seed(account);
    const user = await connectedUser();
    await get(user.token, '/api/v1/trade/sync_trade');
    const ids = (await allTrades(user.token)).map((tr) => tr.tradeId);
    expect(ids.filter((id) => id !== '1003')).toEqual(['1000', '999']);

    account.trades.splice(
      account.trades.findIndex((tr) => tr.id === '1003'),
      1,
    );
    account.lastTransactionID += 1;
    const res = await get(user.token, '/api/v1/trade/sync_trade');
    expect(res.json().message).toBe('Synced 2 trades from 1 account: 0 new, 0 updated, 1 removed');
    expect(storedSet(await allTrades(user.token))).toEqual(brokerSet());
  });

  it('answers 400 naming the field for a bad page or limit', async () => {
    const user = await t.user();
    const cases: Array<[string, string]> = [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['mode=paper', 'mode'],
    ];
    for (const [query, field] of cases) {
      for (const path of ['/api/v1/trade/get_trade_history', '/api/v1/account/get_accounts']) {
        if (field === 'mode' && path.includes('accounts')) continue;
        const res = await get(user.token, `${path}?${query}`);
        expect(res.statusCode, `${path}?${query}`).toBe(400);
        expect(res.json().message).toContain(field);
      }
    }
  });

  it("never shows one user's trades or accounts to another", async () => {
    seed(seededAccount(A, 12, 1));
    const owner = await connectedUser();
    await get(owner.token, '/api/v1/trade/sync_trade');
    const stranger = await t.user();
    expect((await get(stranger.token, '/api/v1/trade/get_trade_history')).json()).toMatchObject({ data: [], total: 0 });
    expect((await get(stranger.token, '/api/v1/account/get_accounts')).json()).toMatchObject({ data: [], total: 0 });
    expect((await get(stranger.token, `/api/v1/trade/get_trade_history?accountId=${A}`)).json()).toMatchObject({
      total: 0,
    });

    // The same OANDA account synced by a second user: separate rows, the first user's untouched.
    const second = await connectedUser();
    const res = await get(second.token, '/api/v1/trade/sync_trade');
    expect(res.json().message).toBe('Synced 13 trades from 1 account: 13 new, 0 updated');
    expect((await get(owner.token, '/api/v1/trade/get_trade_history')).json().total).toBe(13);
    const accounts = (await get(second.token, '/api/v1/account/get_accounts')).json<{ data: AccountItem[] }>().data;
    const ownerAccounts = (await get(owner.token, '/api/v1/account/get_accounts')).json<{ data: AccountItem[] }>().data;
    expect(accounts[0]?.id).not.toBe(ownerAccounts[0]?.id);
    expect(accounts[0]?.userId).not.toBe(ownerAccounts[0]?.userId);
  });

  it('refuses a second sync while the first runs', async () => {
    seed(seededAccount(A, 10, 1));
    const user = await connectedUser();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Hold the first sync at its summary request until the second sync has been answered.
    ledger.faults.push((_req, res, url) => {
      if (!url.pathname.endsWith('/summary')) return false;
      ledger.faults.length = 0;
      void gate.then(() => res.writeHead(503).end()); // then retried and answered normally
      return true;
    });
    const first = get(user.token, '/api/v1/trade/sync_trade');
    while (!ledger.requests.some((r) => r.path.endsWith('/summary')))
      await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await get(user.token, '/api/v1/trade/sync_trade');
    release();
    const firstRes = await first;
    expect([firstRes.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const refused = firstRes.statusCode === 409 ? firstRes : second;
    expect(refused.json()).toMatchObject({
      code: 'SYNC_IN_PROGRESS',
      message: 'A trade sync is already running for your account. Wait for it to finish.',
    });
    // An account sync may run beside it.
    expect((await get(user.token, '/api/v1/account/sync_account')).statusCode).toBe(200);
  });
});

describe('trade sync failures', () => {
  it('says the token was rejected for the mode, without the token and without signing the user out', async () => {
    seed(seededAccount(A, 3, 0));
    const user = await connectedUser({ accessToken: 'revoked-token-0001' });
    const res = await get(user.token, '/api/v1/trade/sync_trade');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({
      code: 'OANDA_AUTH',
      message: 'OANDA rejected the access token for demo mode. Check it in Settings → Trading Platforms.',
    });
    expect(res.body).not.toContain('revoked-token-0001');
    expect(ledger.requests).toHaveLength(1);
  });

  it('names an account the token may not use', async () => {
    seed(seededAccount(A, 3, 0));
    const user = await connectedUser({ accountId: '101-004-9999999-001' });
    const res = await get(user.token, '/api/v1/account/sync_account');
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('OANDA_FORBIDDEN');
    expect(res.json().message).toContain('101-004-9999999-001');
  });

  it('rides out a 429 and a 503 on the way', async () => {
    seed(seededAccount(A, 700, 2));
    const user = await connectedUser();
    let n = 0;
    ledger.faults.push((_req, res, url) => {
      if (!url.pathname.endsWith('/trades')) return false;
      n += 1;
      if (n === 1) res.writeHead(429, { 'Retry-After': '0' }).end();
      else if (n === 3) res.writeHead(503).end();
      else return false;
      return true;
    });
    const res = await get(user.token, '/api/v1/trade/sync_trade');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.trades).toBe(702);
  });

  it('reports an OANDA outage that outlasts the retries', async () => {
    seed(seededAccount(A, 3, 0));
    const user = await connectedUser();
    ledger.faults.push((_req, res) => {
      res.writeHead(500).end();
      return true;
    });
    const res = await get(user.token, '/api/v1/trade/sync_trade');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'OANDA_UNAVAILABLE' });
    expect(res.json().message).toContain('sync again');
  });

  for (const cut of ['connection', 'body'] as const) {
    it(`is exact after a sync cut off at a random point (${cut}) and run again`, async () => {
      for (let round = 0; round < 3; round += 1) {
        seed(seededAccount(A, 1400, 9), seededAccount(B, 480, 3, 20));
        const user = await connectedUser();
        // Requests of the full sync: accounts, then per account summary + pages (3 + 1 empty for A, 1 + 1 for B).
        const breakAt = 1 + Math.floor(Math.random() * 8);
        let seen = 0;
        ledger.faults.push((_req, res) => {
          seen += 1;
          if (seen < breakAt) return false;
          if (cut === 'connection') res.socket?.destroy();
          else {
            res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100000' });
            res.write('{"trades":[{"id":"');
            setTimeout(() => res.socket?.destroy(), 2);
          }
          return true;
        });
        const broken = await get(user.token, '/api/v1/trade/sync_trade');
        expect(broken.statusCode, `break at request ${breakAt}`).toBe(502);
        expect(broken.json().message).toContain('sync again');
        const partial = await allTrades(user.token);
        expect(new Set(partial.map((tr) => `${tr.accountId}|${tr.tradeId}`)).size).toBe(partial.length);

        ledger.faults.length = 0;
        const again = await get(user.token, '/api/v1/trade/sync_trade');
        expect(again.statusCode, again.body).toBe(200);
        expect(again.json().data.trades).toBe(1892);
        const stored = await allTrades(user.token);
        expect(stored).toHaveLength(1892);
        expect(storedSet(stored)).toEqual(brokerSet());
        expect(again.json().data.created).toBe(1892 - partial.length);
      }
    });
  }
});

describe('candles', () => {
  it('proxies candles with the user credentials and validates the query', async () => {
    seed(seededAccount(A, 1, 0));
    const user = await connectedUser();
    const res = await get(user.token, '/api/v1/trade/candles?instrument=eur_usd&granularity=M5&count=60');
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json<CandlesResponse>();
    expect(data.candles).toHaveLength(60);
    expect(typeof data.candles[0]?.mid?.o).toBe('string');
    expect(data.candles.at(-1)?.complete).toBe(false);
    const asked = ledger.requests.find((r) => r.path.endsWith('/candles'));
    expect(asked).toMatchObject({
      path: '/v3/instruments/EUR_USD/candles',
      query: { granularity: 'M5', count: '60', price: 'M' },
    });

    const bad: Array<[string, string]> = [
      ['instrument=EURUSD', 'instrument'],
      ['instrument=EUR_USD&granularity=M7', 'granularity'],
      ['instrument=EUR_USD&count=5001', 'count'],
      ['instrument=EUR_USD&from=2025-10-01T00:00:00Z&to=2025-10-02T00:00:00Z&count=10', 'count'],
      ['instrument=EUR_USD&from=yesterday', 'from'],
      ['instrument=EUR_USD&price=MM', 'price'],
    ];
    for (const [query, field] of bad) {
      const r = await get(user.token, `/api/v1/trade/candles?${query}`);
      expect(r.statusCode, query).toBe(400);
      expect(r.json().message, query).toContain(field);
    }
  });

  it('runs 2 candle requests of a user at a time, queues 6, and refuses more with a clear 429', async () => {
    seed(seededAccount(A, 1, 0));
    const user = await connectedUser();
    const other = await connectedUser();
    const userId = String(jwtPayload(user.token).sub);
    const { running, queued } = CANDLE_CONCURRENCY;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // OANDA holds the user's candle requests (count=60) until released, then answers 503: retried, then served.
    ledger.faults.push((_req, res, url) => {
      if (!url.pathname.endsWith('/candles') || url.searchParams.get('count') !== '60') return false;
      void gate.then(() => res.writeHead(503).end());
      return true;
    });
    const candles = (token: string, count: number) =>
      get(token, `/api/v1/trade/candles?instrument=EUR_USD&granularity=M5&count=${count}`);
    const accepted = Array.from({ length: running + queued }, () => candles(user.token, 60));
    const atOanda = () => ledger.requests.filter((r) => r.path.endsWith('/candles')).length;
    await until(
      () => candleLimit.load(userId).waiting >= queued && atOanda() >= running,
      `${running} candle requests at OANDA and ${queued} waiting for the user's turn`,
    );
    expect(candleLimit.load(userId)).toEqual({ running, waiting: queued });
    expect(atOanda()).toBe(running);

    const refused = await candles(user.token, 60);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({
      success: false,
      code: 'TOO_MANY_RUNNING',
      message: 'You already have 8 candle requests running or waiting. Wait for them to finish, then try again.',
    });
    // Another user has places of their own (their request waits only for a free OANDA connection).
    const others = candles(other.token, 61);
    const otherId = String(jwtPayload(other.token).sub);
    await until(() => candleLimit.load(otherId).running >= 1, "the other user's candle request to run");
    expect(candleLimit.load(otherId)).toEqual({ running: 1, waiting: 0 });

    ledger.faults.length = 0;
    release();
    for (const res of await Promise.all([...accepted, others])) expect(res.statusCode, res.body).toBe(200);
    expect(candleLimit.load(userId)).toEqual({ running: 0, waiting: 0 });
    expect((await candles(user.token, 60)).statusCode).toBe(200);
  });
});
