import { afterEach, describe, expect, it } from 'vitest';
import { startOandaSim, type FailStatus, type OandaSim } from '@pipsense/oanda-sim';
import type { SyncStatus } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../test/harness';
import { simBook, storedBook, storedTrades } from '../test/sim-book';

/*
 * OANDA misbehaving, through the real v20 client and the Sync buttons' routes, against the simulator's scheduled
 * faults (tools/oanda-sim/src/faults.ts): rate limits with and without Retry-After, server errors, an answer that
 * never comes, truncated JSON. Each ends in a bounded number of attempts, the project's clear message
 * (modules/trading/oanda-failure.ts), and nothing stored lost: the next sync is exact.
 */

const NOW = Date.UTC(2025, 9, 3, 14, 30);
const RETRIES = 2;
const TIMEOUT_MS = 3_000;
const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

interface Setup {
  s: OandaSim;
  t: TestApp;
  token: string;
  /** Every wait the client chose between attempts (ms). */
  waits: number[];
  sync(path?: string): Promise<{ status: number; body: { code?: string; message: string }; headers: object }>;
}

async function setup(tradesPerAccount = 300, maxRetryAfterMs = 5_000): Promise<Setup> {
  const s = await startOandaSim({ accounts: 2, tradesPerAccount, now: () => NOW, seed: 5 });
  running.push(s);
  const waits: number[] = [];
  const t = await createTestApp(
    { OANDA_PRACTICE_URL: s.url },
    {
      oanda: {
        retries: RETRIES,
        baseDelayMs: 5,
        maxDelayMs: 20,
        timeoutMs: TIMEOUT_MS,
        maxRetryAfterMs,
        sleep: (ms) => {
          waits.push(ms);
          return new Promise((resolve) => setTimeout(resolve, ms));
        },
      },
    },
  );
  running.push(t);
  const { token } = await t.oandaUser({ oanda: { accessToken: s.token }, sync: 'none' });
  return {
    s,
    t,
    token,
    waits,
    async sync(path = '/api/v1/trade/sync_trade') {
      const res = await t.call(token, { method: 'GET', url: path });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    },
  };
}

const faulted = (s: OandaSim) => s.requestLog.filter((r) => r.fault !== undefined);
const stored = (x: Setup) => storedTrades(x.t.api(x.token));

/** Stored trades still all there, and a sync without faults ends exactly on the broker's book. */
async function nothingLost(x: Setup, before: string[]): Promise<void> {
  const after = storedBook(await stored(x));
  for (const line of before) expect(after).toContain(line);
  x.s.faults.reset();
  const again = await x.sync();
  expect(again.status, again.body.message).toBe(200);
  expect(storedBook(await stored(x))).toEqual(simBook(x.s));
}

/** A first sync, then the broker moves on, so the faulted sync has new trades to fetch. */
async function syncedThenMoved(x: Setup): Promise<string[]> {
  expect((await x.sync()).status).toBe(200);
  const id = x.s.accountIds[1]!;
  x.s.openTrade(id, { instrument: 'EUR_USD', units: 2500 });
  x.s.closeTrade(id, x.s.state.trades(id, 'OPEN')[0]!.id);
  return storedBook(await stored(x));
}

describe('OANDA rate limits (429)', () => {
  it('waits as long as Retry-After says, then goes on', async () => {
    const x = await setup();
    x.s.faults.fail(2, 429, { match: '/trades', retryAfter: 1 });
    const res = await x.sync();
    expect(res.status, res.body.message).toBe(200);
    expect(faulted(x.s)).toHaveLength(2);
    expect(x.waits.filter((ms) => ms >= 1_000)).toHaveLength(2);
    expect(storedBook(await stored(x))).toEqual(simBook(x.s));
  });

  it('reads Retry-After as an HTTP date too', async () => {
    const x = await setup(200);
    x.s.faults.fail(1, 429, { match: '/trades', retryAfter: new Date(Date.now() + 3_000).toUTCString() });
    const res = await x.sync();
    expect(res.status, res.body.message).toBe(200);
    expect(faulted(x.s)).toHaveLength(1);
    // Whole seconds on the wire, so somewhat under 3 s by the time it is read.
    expect(x.waits.filter((ms) => ms >= 1_000)).toHaveLength(1);
    expect(storedBook(await stored(x))).toEqual(simBook(x.s));
  });

  it('without Retry-After backs off a bounded number of times, then says to wait', async () => {
    const x = await setup();
    const before = await syncedThenMoved(x);
    x.s.requestLog.length = 0;
    x.s.faults.fail(50, 429, { match: '/summary' });
    const res = await x.sync();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'OANDA_RATE_LIMITED',
      message:
        'OANDA is limiting requests right now. Try again in a minute. Nothing stored was lost; sync again to finish.',
    });
    // One attempt and RETRIES more for each account being synced (two at a time), with growing waits, then the
    // trader is told.
    const byAccount = new Map<string, number>();
    for (const r of faulted(x.s)) byAccount.set(r.path, (byAccount.get(r.path) ?? 0) + 1);
    expect(byAccount.size).toBeGreaterThanOrEqual(1);
    expect(byAccount.size).toBeLessThanOrEqual(2);
    for (const count of byAccount.values()) expect(count).toBe(RETRIES + 1);
    expect(x.waits.slice(-RETRIES).every((ms) => ms > 0 && ms <= 20)).toBe(true);
    await nothingLost(x, before);
  });

  it('does not sit out a long Retry-After: it names the wait and passes it on', async () => {
    const x = await setup();
    const before = await syncedThenMoved(x);
    x.s.faults.fail(1, 429, { match: '/trades', retryAfter: 120 });
    const started = performance.now();
    const res = await x.sync();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(res.status).toBe(503);
    expect(res.headers).toMatchObject({ 'retry-after': '120' });
    expect(res.body.message).toBe(
      'OANDA is limiting requests right now. Try again in 120 seconds. Nothing stored was lost; sync again to finish.',
    );
    expect(x.waits.some((ms) => ms >= 5_000)).toBe(false);
    await nothingLost(x, before);
  });
});

describe('OANDA server errors (5xx)', () => {
  it.each([500, 502, 503, 504] as FailStatus[])('rides out %i within the retries', async (status) => {
    const x = await setup(300);
    x.s.faults.fail(RETRIES, status, { match: '/trades' });
    const res = await x.sync();
    expect(res.status, res.body.message).toBe(200);
    expect(faulted(x.s)).toHaveLength(RETRIES);
    expect(storedBook(await stored(x))).toEqual(simBook(x.s));
  });

  it('says OANDA is not answering properly once the retries are spent, mid-history', async () => {
    const x = await setup(1200);
    const before = await syncedThenMoved(x);
    // The second account's trade pages fail: the first account's sync stands.
    x.s.faults.fail(50, 503, { match: `${x.s.accountIds[1]}/trades` });
    const res = await x.sync('/api/v1/trade/sync_trade?full=true');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      code: 'OANDA_UNAVAILABLE',
      message:
        'OANDA is not answering properly right now (HTTP 503). Try again in a few minutes. Nothing stored was lost; sync again to finish.',
    });
    expect(faulted(x.s)).toHaveLength(RETRIES + 1);
    await nothingLost(x, before);
  });
});

describe('OANDA answers that never come or come broken', () => {
  it('gives up on a hung request after the timeout, with a clear message, and hangs nothing', async () => {
    const x = await setup();
    const before = await syncedThenMoved(x);
    x.s.faults.hang(1, { match: '/trades' });
    const started = performance.now();
    const res = await x.sync();
    // One attempt's limit (a timeout is not retried: OANDA may still be working on it), well short of a hang.
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS * 10);
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({
      code: 'OANDA_TIMEOUT',
      message: 'OANDA did not answer in time. Try again in a moment. Nothing stored was lost; sync again to finish.',
    });
    await nothingLost(x, before);
  });

  it('rides out a 200 with truncated JSON within the retries', async () => {
    const x = await setup(300);
    x.s.faults.garble(RETRIES, { match: '/trades' });
    const res = await x.sync();
    expect(res.status, res.body.message).toBe(200);
    expect(faulted(x.s)).toHaveLength(RETRIES);
    // The same bounded backoff as after a 5xx.
    expect(x.waits).toHaveLength(RETRIES);
    expect(x.waits.every((ms) => ms > 0 && ms <= 20)).toBe(true);
    expect(storedBook(await stored(x))).toEqual(simBook(x.s));
  });

  it('reports truncated JSON that outlasts the retries as an answer it could not read', async () => {
    const x = await setup();
    const before = await syncedThenMoved(x);
    x.s.requestLog.length = 0;
    x.s.faults.garble(50, { match: '/trades' });
    const res = await x.sync();
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      code: 'OANDA_BAD_RESPONSE',
      message:
        'OANDA sent an answer PipSense could not read. Try again later. Nothing stored was lost; sync again to finish.',
    });
    // One attempt and RETRIES more for each request that got a garbled answer, then the trader is told.
    const byRequest = new Map<string, number>();
    for (const r of faulted(x.s)) {
      const key = `${r.path}?${new URLSearchParams(r.query).toString()}`;
      byRequest.set(key, (byRequest.get(key) ?? 0) + 1);
    }
    expect(byRequest.size).toBeGreaterThanOrEqual(1);
    for (const count of byRequest.values()) expect(count).toBe(RETRIES + 1);
    await nothingLost(x, before);
  });

  it('retries an answer cut off mid-body, and then tells', async () => {
    const x = await setup();
    const before = await syncedThenMoved(x);
    x.s.faults.cut(50, { match: `${x.s.accountIds[0]}/summary` });
    const res = await x.sync('/api/v1/account/sync_account');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'OANDA_BAD_RESPONSE' });
    expect(res.body.message).toMatch(/^OANDA's answer was cut off\. Try again in a moment\./);
    expect(faulted(x.s)).toHaveLength(RETRIES + 1);
    await nothingLost(x, before);
  });

  it('records the failure in the Sync status the screens show, in the same words', async () => {
    const x = await setup(100);
    x.s.faults.fail(50, 502, { match: '/trades' });
    const res = await x.sync();
    expect(res.status).toBe(502);
    const status = await x.t.call(x.token, { method: 'GET', url: '/api/v1/sync/status' });
    expect(status.statusCode).toBe(200);
    const data = status.json<{ data: SyncStatus }>().data;
    expect(data.lastError).toContain('OANDA is not answering properly right now (HTTP 502).');
  });
});
