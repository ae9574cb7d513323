// Injected faults: error statuses, Retry-After, slow and never-answered requests, bodies cut
// mid-stream and bodies that are not JSON.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim } from './index';
import { FIXED_NOW, get } from './test-support';

let sim: OandaSim;
let summaryPath: string;

beforeAll(async () => {
  sim = await startOandaSim({ seed: 9, tradesPerAccount: 100, now: () => FIXED_NOW });
  summaryPath = `/v3/accounts/${sim.accountIds[0]}/summary`;
});
afterEach(() => sim.faults.reset());
afterAll(() => sim.close());

function raw(path: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${sim.url}${path}`, { headers: { Authorization: `Bearer ${sim.token}` }, signal });
}

describe('fail', () => {
  it('answers the next N requests with the status, then recovers', async () => {
    sim.faults.fail(2, 503);
    expect(sim.faults.pending).toBe(2);
    const first = await get(sim, summaryPath);
    const second = await get(sim, summaryPath);
    const third = await get(sim, summaryPath);
    expect([first.status, second.status, third.status]).toEqual([503, 503, 200]);
    expect(first.body).toHaveProperty('errorMessage');
    expect(sim.faults.pending).toBe(0);
  });

  it('sends 429 with Retry-After when asked', async () => {
    sim.faults.fail(1, 429, { retryAfter: 2 });
    const res = await get(sim, summaryPath);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.body).toEqual({ errorMessage: 'Requests are being rate limited' });
  });

  it('applies only to matching paths', async () => {
    sim.faults.fail(1, 500, { match: '/trades' });
    expect((await get(sim, summaryPath)).status).toBe(200);
    expect((await get(sim, `/v3/accounts/${sim.accountIds[0]}/trades`)).status).toBe(500);
    expect((await get(sim, `/v3/accounts/${sim.accountIds[0]}/trades`)).status).toBe(200);
  });

  it('accepts RegExp and predicate matchers', async () => {
    sim.faults.fail(1, 502, { match: /\/candles$/ });
    sim.faults.fail(1, 504, { match: (r) => r.query.state === 'ALL' });
    expect((await get(sim, `/v3/accounts/${sim.accountIds[0]}/trades?state=ALL`)).status).toBe(504);
    expect((await get(sim, '/v3/instruments/EUR_USD/candles?granularity=M1&count=1')).status).toBe(502);
  });
});

describe('delay and hang', () => {
  it('holds responses back: a short client timeout gives up, the next request is prompt again', async () => {
    sim.faults.delay(5_000, { next: 1 });
    await expect(raw(summaryPath, AbortSignal.timeout(100))).rejects.toThrow();
    const after = await raw(summaryPath);
    expect(after.status).toBe(200);
  });

  it('never answers hung requests', async () => {
    sim.faults.hang(1);
    await expect(raw(summaryPath, AbortSignal.timeout(100))).rejects.toThrow();
    const logged = sim.requestLog.at(-1);
    expect(logged).toMatchObject({ path: summaryPath, fault: 'hang' });
    expect(logged?.status).toBeUndefined();
    expect((await raw(summaryPath)).status).toBe(200);
  });
});

describe('broken bodies', () => {
  it('cut: sends the headers and part of the body, then drops the connection', async () => {
    sim.faults.cut(1, { match: '/trades' });
    const res = await raw(`/v3/accounts/${sim.accountIds[0]}/trades?state=ALL&count=100`);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(1000);
    await expect(res.text()).rejects.toThrow();
    expect((await raw(`/v3/accounts/${sim.accountIds[0]}/trades?state=ALL&count=100`)).status).toBe(200);
  });

  it('garble: a complete 200 response whose body is truncated JSON', async () => {
    sim.faults.garble(1);
    const res = await raw(summaryPath);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(10);
    expect(() => JSON.parse(text) as unknown).toThrow();
  });

  it('reset clears everything scheduled', async () => {
    sim.faults.fail(5, 500);
    sim.faults.cut(5);
    sim.faults.delay(10_000);
    sim.faults.reset();
    expect(sim.faults.pending).toBe(0);
    expect((await get(sim, summaryPath)).status).toBe(200);
  });
});

describe('rate limit', () => {
  it('answers 429 beyond the configured requests per second', async () => {
    const limited = await startOandaSim({ seed: 9, tradesPerAccount: 10, now: () => FIXED_NOW, rateLimit: 3 });
    try {
      // Twenty requests at once span at most two clock seconds, so one second holds at least ten.
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async () => (await get(limited, '/v3/accounts')).status),
      );
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    } finally {
      await limited.close();
    }
  });
});
