import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, LIVE_TOKEN, startOandaSim, type OandaSim, type SimOptions } from '@pipsense/oanda-sim';
import type { AccountItem, CandlesResponse, TradeItem } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import { simBook as simSet, storedBook as storedSet, storedTrades } from '../../test/sim-book';

/*
 * The trading routes end to end against the v20 simulator (tools/oanda-sim): the app's OANDA hosts point at
 * simulators on loopback. The simulator's clock is fixed so that open trades' unrealized P/L holds still
 * between syncs unless a test moves the book.
 */
const NOW = Date.UTC(2025, 9, 3, 14, 30);

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

async function sim(options: SimOptions = {}): Promise<OandaSim> {
  const s = await startOandaSim({ accounts: 2, tradesPerAccount: 700, now: () => NOW, ...options });
  running.push(s);
  return s;
}

async function appFor(practice: OandaSim, live?: OandaSim): Promise<TestApp> {
  const t = await createTestApp(
    { OANDA_PRACTICE_URL: practice.url, OANDA_LIVE_URL: live?.url ?? 'http://127.0.0.1:9' },
    { oanda: { retries: 2, baseDelayMs: 1, maxDelayMs: 4, timeoutMs: 5_000 } },
  );
  running.push(t);
  return t;
}

async function connect(t: TestApp, accessToken: string, mode: 'demo' | 'live' = 'demo', accountId = '') {
  return (await t.oandaUser({ oanda: { accessToken, accountId, mode }, sync: 'none' })).token;
}

const get = (t: TestApp, token: string, url: string) => t.call(token, { method: 'GET', url });

const stored = (t: TestApp, token: string): Promise<TradeItem[]> => storedTrades(t.api(token));

describe('trading against the OANDA simulator', () => {
  it("syncs accounts and the full history, exactly the simulator's book", async () => {
    const s = await sim();
    const t = await appFor(s);
    const token = await connect(t, s.token);

    const accounts = await get(t, token, '/api/v1/account/sync_account');
    expect(accounts.statusCode, accounts.body).toBe(200);
    expect(accounts.json().message).toBe('Synced 2 accounts: 2 new, 0 updated');
    const listed = (await get(t, token, '/api/v1/account/get_accounts?page=1&limit=10')).json<{
      data: AccountItem[];
    }>();
    for (const id of s.accountIds) {
      const summary = s.state.summary(id);
      expect(listed.data.find((a) => a.oandaAccountId === id)).toMatchObject({
        alias: summary.alias,
        currency: summary.currency,
        balance: summary.balance,
        NAV: summary.NAV,
        unrealizedPL: summary.unrealizedPL,
        marginUsed: summary.marginUsed,
        openTradeCount: summary.openTradeCount,
        openPositionCount: summary.openPositionCount,
        lastTransactionID: s.state.lastTransactionID(id),
        mode: 'demo',
      });
    }

    const res = await get(t, token, '/api/v1/trade/sync_trade');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Synced 1,400 trades from 2 accounts: 1,400 new, 0 updated');
    expect(storedSet(await stored(t, token))).toEqual(simSet(s));

    // Nothing new at the broker (its lastTransactionID is the stored checkpoint): the accounts, each summary and its
    // open trades, and not one request for transactions.
    s.requestLog.length = 0;
    const quiet = await get(t, token, '/api/v1/trade/sync_trade');
    expect(quiet.json().message).toBe('Synced 1,400 trades from 2 accounts: 0 new, 0 updated');
    expect(s.requestLog.map((r) => r.path.replace(/\/accounts\/[^/]+/, '/accounts/{id}')).sort()).toEqual([
      '/v3/accounts',
      '/v3/accounts/{id}/openTrades',
      '/v3/accounts/{id}/openTrades',
      '/v3/accounts/{id}/summary',
      '/v3/accounts/{id}/summary',
    ]);

    const page = (await get(t, token, '/api/v1/trade/get_trade_history?page=1&limit=10')).json<{
      pages: number;
      data: TradeItem[];
    }>();
    expect(page.pages).toBe(140);
    expect(page.data).toHaveLength(10);
  });

  it('afterwards follows what happened at the broker', async () => {
    const s = await sim({ accounts: 1 });
    const t = await appFor(s);
    const token = await connect(t, s.token);
    const id = s.accountIds[0]!;
    await get(t, token, '/api/v1/trade/sync_trade');

    const open = s.state.trades(id, 'OPEN');
    expect(open.length).toBeGreaterThan(3);
    s.openTrade(id, { instrument: 'EUR_USD', units: 5000, takeProfit: '1.30000', stopLoss: '1.05000' });
    s.openTrade(id, { instrument: 'USD_JPY', units: -2000 });
    s.closeTrade(id, open[0]!.id);
    s.closeTrade(id, open[1]!.id, { units: 1 });
    s.setStopLoss(id, open[2]!.id, null);
    s.requestLog.length = 0;

    const res = await get(t, token, '/api/v1/trade/sync_trade');
    expect(res.statusCode, res.body).toBe(200);
    const { created, updated, full } = res.json<{ data: { created: number; updated: number; full: boolean } }>().data;
    expect({ created, full }).toEqual({ created: 2, full: false });
    expect(updated).toBeGreaterThanOrEqual(3);
    expect(s.requestLog.some((r) => r.query['beforeID'] !== undefined)).toBe(false);
    expect(storedSet(await stored(t, token))).toEqual(simSet(s));
  });

  it('is exact after a sync cut off at a random point and run again', async () => {
    const s = await sim({ accounts: 2, tradesPerAccount: 1100 });
    const t = await appFor(s);
    const token = await connect(t, s.token);
    // accounts, then per account: summary, 3 pages, 1 empty page.
    const breakAt = 1 + Math.floor(Math.random() * 11);
    let seen = 0;
    s.faults.cut(1_000, { match: () => ++seen >= breakAt });
    const broken = await get(t, token, '/api/v1/trade/sync_trade');
    expect(broken.statusCode, `cut from request ${breakAt}`).toBe(502);
    expect(broken.json()).toMatchObject({ code: 'OANDA_BAD_RESPONSE' });
    const partial = await stored(t, token);
    expect(new Set(partial.map((tr) => `${tr.accountId}|${tr.tradeId}`)).size).toBe(partial.length);

    s.faults.reset();
    const again = await get(t, token, '/api/v1/trade/sync_trade');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ trades: 2200, created: 2200 - partial.length });
    expect(storedSet(await stored(t, token))).toEqual(simSet(s));
  });

  it('rides out injected 429s and 5xx within the retries', async () => {
    const s = await sim({ accounts: 1, tradesPerAccount: 1200 });
    const t = await appFor(s);
    const token = await connect(t, s.token);
    s.faults.fail(1, 429, { match: '/trades', retryAfter: 0 });
    s.faults.fail(2, 503, { match: '/summary' });
    const res = await get(t, token, '/api/v1/trade/sync_trade');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.trades).toBe(1200);
    expect(s.requestLog.filter((r) => r.fault === 'fail')).toHaveLength(3);
  });

  it('reports a garbled answer and an answer that never comes', async () => {
    const s = await sim({ accounts: 1, tradesPerAccount: 50 });
    const t = await createTestApp(
      { OANDA_PRACTICE_URL: s.url },
      { oanda: { retries: 1, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 300 } },
    );
    running.push(t);
    const token = await connect(t, s.token);
    // Garbled on the first attempt and on its one retry (a garbled 200 is retried like a 5xx).
    s.faults.garble(2, { match: '/summary' });
    const garbled = await get(t, token, '/api/v1/account/sync_account');
    expect(garbled.statusCode).toBe(502);
    expect(garbled.json().code).toBe('OANDA_BAD_RESPONSE');
    s.faults.hang(1, { match: '/summary' });
    const hung = await get(t, token, '/api/v1/account/sync_account');
    expect(hung.statusCode).toBe(504);
    expect(hung.json().code).toBe('OANDA_TIMEOUT');
  });

  it('uses the live host for live mode, and names the mode when a token is rejected', async () => {
    const practice = await sim({ accounts: 1, tradesPerAccount: 20 });
    const live = await sim({ accounts: 1, tradesPerAccount: 30, environment: 'live', seed: 7 });
    const t = await appFor(practice, live);

    const liveUser = await connect(t, LIVE_TOKEN, 'live');
    const res = await get(t, liveUser, '/api/v1/trade/sync_trade');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Synced 30 trades from 1 account: 30 new, 0 updated');
    expect((await stored(t, liveUser)).every((tr) => tr.mode === 'live')).toBe(true);
    expect(practice.requestLog.filter((r) => r.path.startsWith('/v3/'))).toHaveLength(0);

    const wrong = await connect(t, DEMO_TOKEN, 'live');
    const rejected = await get(t, wrong, '/api/v1/trade/sync_trade');
    expect(rejected.statusCode).toBe(502);
    expect(rejected.json()).toMatchObject({
      code: 'OANDA_AUTH',
      message: 'OANDA rejected the access token for live mode. Check it in Settings → Trading Platforms.',
    });
    expect(rejected.body).not.toContain(DEMO_TOKEN);
  });

  it('serves candles for the trade chart', async () => {
    const s = await sim({ accounts: 1, tradesPerAccount: 10 });
    const t = await appFor(s);
    const token = await connect(t, s.token);
    const res = await get(t, token, '/api/v1/trade/candles?instrument=EUR_USD&granularity=M15&count=120&price=BA');
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json<CandlesResponse>();
    expect(data).toMatchObject({ instrument: 'EUR_USD', granularity: 'M15' });
    expect(data.candles).toHaveLength(120);
    expect(data.candles[0]?.bid?.o).toMatch(/^\d+\.\d{5}$/);
    expect(data.candles[0]?.mid).toBeUndefined();
    const times = data.candles.map((c) => c.time);
    expect([...times].sort()).toEqual(times);

    const ranged = await get(
      t,
      token,
      '/api/v1/trade/candles?instrument=USD_JPY&granularity=H1&from=2025-09-29T00:00:00Z&to=2025-09-30T00:00:00Z',
    );
    expect(ranged.statusCode, ranged.body).toBe(200);
    const hours = ranged.json<CandlesResponse>().data.candles;
    expect(hours.length).toBeGreaterThan(0);
    expect(hours.every((c) => c.time >= '2025-09-29T00:00:00' && c.time < '2025-09-30T00:00:00')).toBe(true);
  });
});
