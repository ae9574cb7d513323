import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import type { SyncStatus } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import type { SyncJobs } from './sync-jobs.service';
import { until } from '../../test/until';

/*
 * The sync routes on the suite's database (SQLite, or PostgreSQL with PIPSENSE_TEST_PG_URL: there the scheduler is
 * pg-boss, its cron off and its polling short), against the v20 simulator: the real syncs, manual and background.
 */
const NOW = Date.UTC(2025, 9, 3, 14, 30);

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

async function setup(): Promise<{ t: TestApp; sim: OandaSim; jobs: SyncJobs; clock: { at: number } }> {
  const sim = await startOandaSim({ accounts: 1, tradesPerAccount: 120, now: () => NOW });
  running.push(sim);
  const clock = { at: NOW };
  let jobs: SyncJobs | undefined;
  const t = await createTestApp(
    { OANDA_PRACTICE_URL: sim.url, OANDA_LIVE_URL: 'http://127.0.0.1:9' },
    {
      now: () => new Date(clock.at),
      oanda: { retries: 0, baseDelayMs: 1, maxDelayMs: 4, timeoutMs: 5_000 },
      syncJobs: {
        enabled: true,
        tickMs: 0,
        tokenGapMs: 0,
        pgBoss: { cron: false, pollingIntervalSeconds: 0.5 },
        expose: (j) => (jobs = j),
      },
    },
  );
  running.push(t);
  return { t, sim, jobs: jobs!, clock };
}

async function status(t: TestApp, token: string): Promise<SyncStatus> {
  const res = await t.call(token, { method: 'GET', url: '/api/v1/sync/status' });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: SyncStatus }>().data;
}

describe('sync routes', () => {
  it('asks for a session', async () => {
    const { t } = await setup();
    expect((await t.call(undefined, { method: 'GET', url: '/api/v1/sync/status' })).statusCode).toBe(401);
    expect(
      (await t.call(undefined, { method: 'POST', url: '/api/v1/sync/schedule', payload: { interval: '5m' } }))
        .statusCode,
    ).toBe(401);
  });

  it('stores the schedule and says which intervals exist', async () => {
    const { t } = await setup();
    const u = await t.oandaUser({ oanda: { accessToken: DEMO_TOKEN }, sync: 'none' });
    expect(await status(t, u.token)).toEqual({
      interval: '15m',
      connected: true,
      lastSyncedAt: null,
      nextDueAt: new Date(NOW).toISOString(),
      running: null,
      lastError: null,
      failures: 0,
      paused: false,
      now: new Date(NOW).toISOString(),
    });
    const bad = await t.call(u.token, { method: 'POST', url: '/api/v1/sync/schedule', payload: { interval: '2m' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('interval must be one of off, 5m, 15m, 1h');
    const hourly = await t.call(u.token, { method: 'POST', url: '/api/v1/sync/schedule', payload: { interval: '1h' } });
    expect(hourly.statusCode).toBe(200);
    expect(hourly.json<{ data: SyncStatus }>().data.interval).toBe('1h');
    expect((await status(t, u.token)).interval).toBe('1h');
  });

  it('records a manual sync (success and failure) in the status', async () => {
    const { t, clock } = await setup();
    const u = await t.oandaUser({ oanda: { accessToken: DEMO_TOKEN }, sync: 'none' });
    const ok = await t.call(u.token, { method: 'GET', url: '/api/v1/trade/sync_trade' });
    expect(ok.statusCode).toBe(200);
    expect(await status(t, u.token)).toMatchObject({
      lastSyncedAt: new Date(NOW).toISOString(),
      nextDueAt: new Date(NOW + 15 * 60_000).toISOString(),
      running: null,
      lastError: null,
    });

    const other = await t.oandaUser({ oanda: { accessToken: 'not-a-token-the-broker-knows' }, sync: 'none' });
    clock.at = NOW + 60_000;
    const failed = await t.call(other.token, { method: 'GET', url: '/api/v1/account/sync_account' });
    expect(failed.statusCode).toBe(502);
    const message = failed.json<{ message: string }>().message;
    expect(message).toMatch(/OANDA rejected the access token/);
    expect(await status(t, other.token)).toMatchObject({ lastSyncedAt: null, lastError: message, running: null });
  });

  it('syncs a due user in the background: the trades arrive and the status moves on', async () => {
    const { t, jobs } = await setup();
    const u = await t.oandaUser({ oanda: { accessToken: DEMO_TOKEN }, sync: 'none' });
    expect(await jobs.queue.tick()).toBe(1);
    await until(async () => (await status(t, u.token)).lastSyncedAt !== null, 'the background sync', { ms: 10_000 });
    const list = await t.call(u.token, { method: 'GET', url: '/api/v1/trade/get_trade_history?page=1&limit=10' });
    expect(list.json<{ total: number }>().total).toBe(120);
    expect(await status(t, u.token)).toMatchObject({
      lastSyncedAt: new Date(NOW).toISOString(),
      nextDueAt: new Date(NOW + 15 * 60_000).toISOString(),
      failures: 0,
      running: null,
    });
    // Not due again at the same time.
    expect(await jobs.queue.tick()).toBe(0);
  });
});
