import { afterEach, describe, expect, it } from 'vitest';
import { createOandaClient, type OandaClientOptions } from './oanda-client';
import { OandaError } from './oanda-error';
import { parseRetryAfter } from './http-transport';
import { compareIds } from './ids';
import { until } from '../../test/until';
import {
  readFixture,
  startFixtureServer,
  type FixtureServer,
  type FixtureServerOptions,
} from '../../test/oanda-fixture-server';

const ACCOUNT = '101-004-27183640-001';

let server: FixtureServer | undefined;
let closeClient: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closeClient?.();
  await server?.close();
  server = undefined;
  closeClient = undefined;
});

async function setup(serverOptions: FixtureServerOptions = {}, clientOptions: Partial<OandaClientOptions> = {}) {
  server = await startFixtureServer(serverOptions);
  const sleeps: number[] = [];
  const client = createOandaClient({
    practiceUrl: server.url,
    liveUrl: 'http://127.0.0.1:9', // never used in demo mode
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
    ...clientOptions,
  });
  closeClient = () => client.close();
  const api = client.forCredentials({ accessToken: server.token, mode: 'demo' });
  return { server, client, api, sleeps };
}

async function failure(promise: Promise<unknown>): Promise<OandaError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OandaError) return error;
    throw error;
  }
  throw new Error('expected an OandaError');
}

const tradeRequests = (s: FixtureServer) => s.requests.filter((r) => r.path.endsWith('/trades'));

describe('OANDA v20 client against recorded responses', () => {
  it('lists accounts with the bearer token and no datetime header, summaries with RFC3339', async () => {
    const { api, server } = await setup();
    const accounts = await api.listAccounts();
    expect(accounts.map((a) => a.id)).toEqual([ACCOUNT, '101-004-27183640-002']);
    const summary = await api.accountSummary('101-004-27183640-002');

    const [list, sum] = server.requests;
    expect(list?.path).toBe('/v3/accounts');
    expect(list?.headers.authorization).toBe(`Bearer ${server.token}`);
    expect(list?.headers['accept-datetime-format']).toBeUndefined();
    expect(sum?.headers['accept-datetime-format']).toBe('RFC3339');
    // "0" for a never-reset P/L and decimals kept as the exact strings.
    expect(summary.account.resettablePLTime).toBe('0');
    expect(summary.account.balance).toBe('5000.0000');
    expect(summary.account.marginCloseoutPercent).toBe('0.00000');
    expect(summary.account.openTradeCount).toBe(0);
    expect(summary.lastTransactionID).toBe('3');
  });

  it('pages the history with state=ALL and beforeID until an empty page, newest first', async () => {
    const { api, server } = await setup();
    const { trades, lastTransactionID } = await api.listTrades(ACCOUNT, { count: 20 });
    const expected = readFixture<{ trades: Array<{ id: string }> }>('trades.state-ALL.json').trades.map((t) => t.id);

    expect(trades.map((t) => t.id)).toEqual(expected);
    expect(trades).toHaveLength(36);
    expect(lastTransactionID).toBe('5318');
    expect(tradeRequests(server).map((r) => r.query)).toEqual([
      { state: 'ALL', count: '20' },
      { state: 'ALL', count: '20', beforeID: '5206' },
      { state: 'ALL', count: '20', beforeID: '5102' },
    ]);
  });

  it('asks for state=ALL and count=500 by default (OANDA alone would return only OPEN trades)', async () => {
    const { api, server } = await setup();
    const { trades } = await api.listTrades(ACCOUNT);
    expect(trades).toHaveLength(36);
    expect(trades.some((t) => t.state === 'CLOSED')).toBe(true);
    for (const r of tradeRequests(server)) expect(r.query).toMatchObject({ state: 'ALL', count: '500' });
  });

  it('keeps every decimal exactly as sent and tolerates absent fields', async () => {
    const { api } = await setup();
    const { trades } = await api.listTrades(ACCOUNT, { count: 20 });
    const open = trades.find((t) => t.id === '5316');
    const closed = trades.find((t) => t.state === 'CLOSED');
    const partial = trades.find((t) => t.id === '5305');
    expect(open).toMatchObject({
      price: '147.566',
      initialUnits: '-12000',
      unrealizedPL: '-8.3705',
      realizedPL: '0.0000',
    });
    expect(open?.stopLossOrder?.price).toBe('147.966');
    expect(closed?.unrealizedPL).toBeUndefined();
    expect(closed?.closeTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    // A partially closed trade is still OPEN but already has a close price.
    expect(partial?.state).toBe('OPEN');
    expect(partial?.averageClosePrice).toMatch(/^\d+\.\d+$/);
    expect(partial?.currentUnits).not.toBe(partial?.initialUnits);
  });

  it('de-duplicates and terminates when a server treats beforeID as inclusive', async () => {
    const { api, server } = await setup({ inclusiveBeforeId: true });
    const { trades } = await api.listTrades(ACCOUNT, { count: 10 });
    expect(new Set(trades.map((t) => t.id)).size).toBe(36);
    expect(trades).toHaveLength(36);
    expect(tradeRequests(server).length).toBeLessThan(10);
  });

  it('compares ids as numbers across a digit-count boundary', async () => {
    const ids = ['1002', '1001', '1000', '999', '998', '99', '10'];
    const trades = ids.map((id) => ({
      id,
      instrument: 'EUR_USD',
      state: 'CLOSED',
      openTime: '2025-01-01T00:00:00.000000000Z',
    }));
    const { api, server } = await setup({ trades });
    const all = await api.listTrades(ACCOUNT, { count: 2 });
    expect(all.trades.map((t) => t.id)).toEqual(ids);
    expect(tradeRequests(server).map((r) => r.query['beforeID'])).toEqual([undefined, '1001', '999', '99', '10']);

    const newer = await api.listTrades(ACCOUNT, { count: 2, afterID: '999' });
    expect(newer.trades.map((t) => t.id)).toEqual(['1002', '1001', '1000']);
    expect(compareIds('999', '1000')).toBeLessThan(0);
    expect(compareIds('0100', '100')).toBe(0);
  });

  it('ignores unknown fields', async () => {
    const { api, server } = await setup();
    server.use((req, res, url) => {
      if (!url.pathname.endsWith('/openTrades')) return false;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          trades: [
            {
              id: '7',
              instrument: 'EUR_USD',
              price: '1.10000',
              quotePL: '1',
              state: 'OPEN',
              initialUnits: '100',
              futureField: { a: 1 },
            },
          ],
          lastTransactionID: '8',
        }),
      );
      return true;
    });
    const { trades } = await api.openTrades(ACCOUNT);
    expect(trades[0]).toMatchObject({ id: '7', initialUnits: '100', price: '1.10000' });
    expect(Object.keys(trades[0] ?? {})).not.toContain('quotePL');
    expect(Object.keys(trades[0] ?? {})).not.toContain('futureField');
  });

  it('refuses a JSON number where OANDA sends a decimal string (digits may already be lost)', async () => {
    const { api, server } = await setup();
    server.use((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"trades":[{"id":"7","price":1.1000000000000000888}]}');
      return true;
    });
    const error = await failure(api.openTrades(ACCOUNT));
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain('trades.0.price');
  });

  it('reads single trades, unknown ids as not_found, and looks up trades by id', async () => {
    const { api } = await setup();
    const trade = await api.trade(ACCOUNT, '5285');
    expect(trade.takeProfitOrder?.price).toBeDefined();
    expect(trade.trailingStopLossOrder?.distance).toBeDefined();
    const missing = await failure(api.trade(ACCOUNT, '999999'));
    expect(missing).toMatchObject({ kind: 'not_found', status: 404, oandaCode: 'NO_SUCH_TRADE' });

    const byIds = await api.tradesByIds(ACCOUNT, ['5285', '5253', '999999']);
    expect(byIds.trades.map((t) => t.id).sort()).toEqual(['5253', '5285']);
    expect(byIds.missing).toEqual(['999999']);
  });

  it('reads account changes and candles', async () => {
    const { api, server } = await setup();
    const changes = await api.accountChanges(ACCOUNT, '5306');
    expect(changes.lastTransactionID).toBe('5318');
    expect(changes.changes.tradesOpened?.length).toBeGreaterThan(0);

    const candles = await api.candles('EUR_USD', { granularity: 'M5', count: 60, price: 'M' });
    expect(candles.candles).toHaveLength(60);
    expect(candles.candles.at(-1)?.complete).toBe(false);
    expect(typeof candles.candles[0]?.mid?.o).toBe('string');
    expect(server.requests.at(-1)?.query).toEqual({ granularity: 'M5', price: 'M', count: '60' });

    const daily = await api.candles('USD_JPY', { granularity: 'D', count: 20, price: 'BAM' });
    expect(daily.candles[0]).toHaveProperty('bid');
    expect(daily.candles[0]).toHaveProperty('ask');
  });

  it('refuses more than 5000 candles before asking, and passes OANDA 400s on as bad_request', async () => {
    const { api, server } = await setup();
    const local = await failure(api.candles('EUR_USD', { granularity: 'M5', count: 5001 }));
    expect(local.kind).toBe('bad_request');
    expect(server.requests).toHaveLength(0);
    const upstream = await failure(api.candles('EUR_USD', { granularity: 'M7' }));
    expect(upstream).toMatchObject({
      kind: 'bad_request',
      oandaMessage: "Invalid value specified for 'granularity'",
      attempts: 1,
    });
  });

  it('reuses one keep-alive connection and accepts gzip', async () => {
    const { api, server } = await setup();
    await api.listTrades(ACCOUNT, { count: 20 });
    for (let i = 0; i < 5; i += 1) await api.accountSummary(ACCOUNT);
    await api.listAccounts();
    // Nine requests over at most the pool's two connections (OANDA rejects more than 2 new ones a second).
    expect(server.requests).toHaveLength(9);
    expect(server.connections()).toBeLessThanOrEqual(2);
    expect(server.requests[0]?.headers['accept-encoding']).toContain('gzip');
  });
});

describe('OANDA v20 client failure paths', () => {
  it('does not retry a rejected token, and never puts the token in the error', async () => {
    const { client, server } = await setup();
    const api = client.forCredentials({ accessToken: 'wrong-token-abcdef', mode: 'demo' });
    const error = await failure(api.listAccounts());
    expect(error).toMatchObject({ kind: 'auth', status: 401, mode: 'demo', attempts: 1 });
    expect(error.oandaMessage).toBe('Insufficient authorization to perform request.');
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(
      'wrong-token-abcdef',
    );
  });

  it('does not retry 403', async () => {
    const { api, server } = await setup();
    const error = await failure(api.accountSummary('101-004-99999999-001'));
    expect(error).toMatchObject({
      kind: 'forbidden',
      status: 403,
      oandaMessage: 'The provided request was forbidden.',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('waits out Retry-After on 429 and then succeeds', async () => {
    const { api, server, sleeps } = await setup();
    let limited = 0;
    server.use((req, res, url) => {
      if (!url.pathname.endsWith('/summary') || limited >= 1) return false;
      limited += 1;
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '3' });
      res.end(JSON.stringify({ errorMessage: 'Rate limit exceeded' }));
      return true;
    });
    const summary = await api.accountSummary(ACCOUNT);
    expect(summary.account.id).toBe(ACCOUNT);
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([3000]);
  });

  it('backs off exponentially on 5xx and gives up after the bounded retries', async () => {
    const { api, server, sleeps } = await setup({}, { retries: 3, baseDelayMs: 100, maxDelayMs: 10_000 });
    server.use((_req, res) => {
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end('<html>maintenance</html>');
      return true;
    });
    const error = await failure(api.accountSummary(ACCOUNT));
    expect(error).toMatchObject({ kind: 'unavailable', status: 503, attempts: 4 });
    expect(server.requests).toHaveLength(4);
    // random() = 0.5 → three quarters of 100, 200, 400.
    expect(sleeps).toEqual([75, 150, 300]);
  });

  it('gives up at once when Retry-After asks for longer than it will wait', async () => {
    const { api, server, sleeps } = await setup({}, { maxRetryAfterMs: 5_000 });
    server.use((_req, res) => {
      res.writeHead(429, { 'Retry-After': '60' });
      res.end();
      return true;
    });
    const error = await failure(api.accountSummary(ACCOUNT));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 60, attempts: 1 });
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a request that never answers', async () => {
    const { api, server } = await setup({}, { timeoutMs: 150 });
    server.use(() => true); // accept and never answer
    const error = await failure(api.accountSummary(ACCOUNT));
    expect(error).toMatchObject({ kind: 'timeout', attempts: 1 });
  });

  it('times out a body that stalls halfway', async () => {
    const { api, server } = await setup({}, { timeoutMs: 150 });
    server.use((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
      res.write('{"account":{"id":"');
      return true;
    });
    expect((await failure(api.accountSummary(ACCOUNT))).kind).toBe('timeout');
  });

  it('reports a body cut off mid-way, after retrying it', async () => {
    const { api, server } = await setup({}, { retries: 2 });
    server.use((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '5000' });
      res.write('{"trades":[{"id":"1","instrument":"EUR_');
      setTimeout(() => res.socket?.destroy(), 5);
      return true;
    });
    const error = await failure(api.listTrades(ACCOUNT));
    expect(error).toMatchObject({ kind: 'truncated', attempts: 3 });
    expect(error.message).toContain('cut off');
    expect(server.requests).toHaveLength(3);
  });

  it('recovers when a cut-off answer succeeds on the retry', async () => {
    const { api, server } = await setup();
    let cut = 0;
    server.use((_req, res) => {
      if (cut > 0) return false;
      cut += 1;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '5000' });
      res.end('{"trades":[');
      res.socket?.destroy();
      return true;
    });
    const { trades } = await api.listTrades(ACCOUNT, { count: 20 });
    expect(trades).toHaveLength(36);
  });

  it('retries a 200 whose body is not JSON with the bounded backoff, then says so; off-format JSON is not retried', async () => {
    const { api, server, sleeps } = await setup({}, { retries: 2 });
    server.use((_req, res, url) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(url.pathname.endsWith('/summary') ? '{"account": {"id": "x", ' : '{"trades": "none"}');
      return true;
    });
    const bad = await failure(api.accountSummary(ACCOUNT));
    expect(bad).toMatchObject({ kind: 'malformed', attempts: 3 });
    expect(bad.message).toContain('not valid JSON');
    expect(bad.message).toContain('(3 attempts)');
    expect(server.requests).toHaveLength(3);
    // The same waits as after a 5xx: equal jitter under a doubling cap (random 0.5 → 3/4 of the cap).
    expect(sleeps).toEqual([225, 450]);
    const offFormat = await failure(api.openTrades(ACCOUNT));
    expect(offFormat).toMatchObject({ kind: 'malformed', attempts: 1 });
    expect(offFormat.message).toContain('trades');
    expect(server.requests).toHaveLength(4);
  });

  it('recovers when a 200 with truncated JSON is whole on the retry', async () => {
    const { api, server } = await setup({}, { retries: 2 });
    let garbled = 0;
    server.use((_req, res) => {
      if (garbled >= 2) return false;
      garbled += 1;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"trades":[{"id":"1","instr');
      return true;
    });
    const { trades } = await api.listTrades(ACCOUNT, { count: 20 });
    expect(trades).toHaveLength(36);
    expect(garbled).toBe(2);
  });

  it('refuses a decimal that is not a decimal', async () => {
    const { api, server } = await setup();
    server.use((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ trades: [{ id: '1', price: '1,234.5' }] }));
      return true;
    });
    const error = await failure(api.openTrades(ACCOUNT));
    expect(error).toMatchObject({ kind: 'malformed' });
    expect(error.message).toContain('trades.0.price');
  });

  it('reports an unreachable host as a network error after retrying', async () => {
    const { client } = await setup({}, { retries: 1, practiceUrl: 'http://127.0.0.1:9' });
    const api = client.forCredentials({ accessToken: 't', mode: 'demo' });
    expect(await failure(api.listAccounts())).toMatchObject({ kind: 'network', attempts: 2 });
  });

  it('uses the live host in live mode', async () => {
    const { client, server } = await setup({}, { liveUrl: 'http://127.0.0.1:9', retries: 0 });
    const live = client.forCredentials({ accessToken: server.token, mode: 'live' });
    expect(await failure(live.listAccounts())).toMatchObject({ kind: 'network', mode: 'live' });
    expect(server.requests).toHaveLength(0);
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('the connections to a host, shared fairly between tokens', () => {
  const DELAY_MS = 80;

  /** Answers every request after DELAY_MS, whatever the token, noting whose requests started and ended when. */
  function slowHost(s: FixtureServer) {
    const started: string[] = [];
    const finished: string[] = [];
    let inFlight = 0;
    let most = 0;
    s.use((req, res) => {
      const who = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      started.push(who);
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        finished.push(who);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ accounts: [{ id: `account-of-${who}` }] }));
      }, DELAY_MS);
      return true;
    });
    return { started, finished, most: () => most };
  }

  it("serves another token's single request after at most about one of a burst's, not after the burst", async () => {
    const { client, server } = await setup(); // 2 connections, the default
    const host = slowHost(server);
    const a = client.forCredentials({ accessToken: 'token-A', mode: 'demo' });
    const b = client.forCredentials({ accessToken: 'token-B', mode: 'demo' });
    const burst = Array.from({ length: 12 }, () => a.listAccounts());
    // Both connections busy with A's first two requests, ten more of A's waiting: then B asks.
    await until(() => host.started.length >= 2, "A's first two requests at OANDA");
    expect((await b.listAccounts())[0]?.id).toBe('account-of-token-B');
    const startedBefore = host.started.indexOf('token-B');
    const finishedBefore = host.finished.indexOf('token-B');
    expect(
      startedBefore,
      `B's request was sent after ${startedBefore} of A's: it should take the next free connection`,
    ).toBe(2);
    expect(finishedBefore, `B's answer came after ${finishedBefore} of A's 12 answers`).toBeLessThanOrEqual(3);
    expect(await Promise.all(burst)).toHaveLength(12);
    // Never more requests in flight than connections; A alone used both of them.
    expect(host.most()).toBe(2);
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('takes turns between two bursts', async () => {
    const { client, server } = await setup();
    const host = slowHost(server);
    const a = client.forCredentials({ accessToken: 'token-A', mode: 'demo' });
    const b = client.forCredentials({ accessToken: 'token-B', mode: 'demo' });
    const burstA = Array.from({ length: 8 }, () => a.listAccounts());
    await until(() => host.started.length >= 2, "A's first two requests at OANDA");
    const burstB = Array.from({ length: 8 }, () => b.listAccounts());
    await Promise.all([...burstA, ...burstB]);
    // After A's first two, each token holds one connection: B is never more than a couple of requests behind A
    // (first come, first served, it would be 8 behind).
    const order = host.started.map((who) => (who === 'token-A' ? 'A' : 'B')).join('');
    let behind = 0;
    for (let i = 1; i <= order.length; i += 1) {
      const prefix = order.slice(0, i);
      const as = prefix.replaceAll('B', '').length;
      if (as === 8) break;
      behind = Math.max(behind, as - (i - as));
    }
    expect(behind, `requests sent in the order ${order}`).toBeLessThanOrEqual(3);
    expect(host.most()).toBe(2);
  });
});
