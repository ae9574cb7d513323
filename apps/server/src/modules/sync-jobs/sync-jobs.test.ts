import { afterEach, describe, expect, it } from 'vitest';
import type { SyncStatus } from '@pipsense/contract';
import { AppError } from '../../lib/errors';
import { createTestApp, type TestApp } from '../../test/harness';
import type { SyncJobs, SyncJobsOptions } from './sync-jobs.service';
import { TOKEN_REJECTED } from './sync-runner';
import { userIdOf } from '../../test/session-subject';

/*
 * The background sync in process (the SQLite default), on a clock the test moves: the queue ticks only when told
 * (tickMs 0) and the sync itself is a fake that records who was synced (or fails, or waits for the test).
 */
const START = Date.UTC(2026, 0, 5, 12, 0);
const MIN = 60_000;

const open: TestApp[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

interface Setup {
  t: TestApp;
  jobs: SyncJobs;
  clock: { at: number };
  calls: string[];
  /** Registers a user with an OANDA token saved (no sync); returns its bearer token and id. */
  user(accessToken?: string): Promise<{ token: string; id: string }>;
  status(token: string): Promise<SyncStatus>;
  /** One tick, then waits until every job it queued has finished. */
  tick(): Promise<number>;
}

async function setup(
  fake: (userId: string, onPage: (n: number) => void) => Promise<void> = async () => {},
  options: Omit<SyncJobsOptions, 'work' | 'expose'> = {},
): Promise<Setup> {
  const clock = { at: START };
  const calls: string[] = [];
  let jobs: SyncJobs | undefined;
  const t = await createTestApp(
    {},
    {
      now: () => new Date(clock.at),
      syncJobs: {
        enabled: true,
        tickMs: 0,
        tokenGapMs: 0,
        backoffMs: MIN,
        ...options,
        work: async (userId, onPage) => {
          calls.push(userId);
          await fake(userId, onPage);
        },
        expose: (j) => (jobs = j),
      },
    },
  );
  open.push(t);
  const status = async (token: string) => {
    const res = await t.call(token, { method: 'GET', url: '/api/v1/sync/status' });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: SyncStatus }>().data;
  };
  return {
    t,
    jobs: jobs!,
    clock,
    calls,
    status,
    async user(accessToken = 'token-of-everyone') {
      const u = await t.oandaUser({ oanda: { accessToken }, sync: 'none' });
      return { token: u.token, id: userIdOf(u.token) };
    },
    async tick() {
      const n = await jobs!.queue.tick();
      await jobs!.queue.idle();
      return n;
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('background sync in process (SQLite)', () => {
  it('syncs a connected user on the tick when due (every 15 minutes by default), not before', async () => {
    const s = await setup();
    const u = await s.user();
    const idle = await s.t.user('nooanda'); // no token: never scheduled
    expect((await s.status(idle.token)).connected).toBe(false);
    expect((await s.status(idle.token)).nextDueAt).toBeNull();

    expect(await s.status(u.token)).toMatchObject({ interval: '15m', connected: true, lastSyncedAt: null });
    expect(await s.tick()).toBe(1);
    expect(s.calls).toEqual([u.id]);
    expect(await s.status(u.token)).toMatchObject({
      lastSyncedAt: iso(START),
      nextDueAt: iso(START + 15 * MIN),
      running: null,
      lastError: null,
      failures: 0,
      paused: false,
    });

    s.clock.at = START + 14 * MIN + 59_000;
    expect(await s.tick()).toBe(0);
    expect(s.calls).toHaveLength(1);
    s.clock.at = START + 15 * MIN;
    expect(await s.tick()).toBe(1);
    expect(s.calls).toEqual([u.id, u.id]);
    expect((await s.status(u.token)).nextDueAt).toBe(iso(START + 30 * MIN));
  });

  it('follows the chosen interval, and never syncs when the schedule is off', async () => {
    const s = await setup();
    const u = await s.user();
    const five = await s.t.call(u.token, { method: 'POST', url: '/api/v1/sync/schedule', payload: { interval: '5m' } });
    expect(five.statusCode).toBe(200);
    expect(five.json<{ message: string }>().message).toBe('Background sync: Every 5 minutes.');
    await s.tick();
    expect((await s.status(u.token)).nextDueAt).toBe(iso(START + 5 * MIN));
    s.clock.at = START + 5 * MIN;
    await s.tick();
    expect(s.calls).toHaveLength(2);

    await s.t.call(u.token, { method: 'POST', url: '/api/v1/sync/schedule', payload: { interval: 'off' } });
    expect(await s.status(u.token)).toMatchObject({ interval: 'off', nextDueAt: null });
    for (const later of [10, 60, 24 * 60]) {
      s.clock.at = START + later * MIN;
      expect(await s.tick()).toBe(0);
    }
    expect(s.calls).toHaveLength(2);

    // Hourly again: one hour after the last sync (which is long past), so due at once.
    await s.t.call(u.token, { method: 'POST', url: '/api/v1/sync/schedule', payload: { interval: '1h' } });
    expect((await s.status(u.token)).nextDueAt).toBe(iso(START + 24 * 60 * MIN));
    expect(await s.tick()).toBe(1);
  });

  it('backs a failing token off exponentially, then pauses it until the settings are saved again', async () => {
    let failing = true;
    const s = await setup(
      async () => {
        if (failing) throw new AppError(502, 'OANDA_AUTH', 'OANDA rejected the access token for demo mode.');
      },
      { maxFailures: 3 },
    );
    const u = await s.user();
    await s.tick();
    expect(await s.status(u.token)).toMatchObject({
      failures: 1,
      lastError: TOKEN_REJECTED,
      nextDueAt: iso(START + MIN),
      paused: false,
    });
    s.clock.at = START + 59_000;
    expect(await s.tick()).toBe(0);
    s.clock.at = START + MIN;
    await s.tick();
    expect(await s.status(u.token)).toMatchObject({ failures: 2, nextDueAt: iso(START + 3 * MIN) });
    s.clock.at = START + 2 * MIN;
    expect(await s.tick()).toBe(0);
    s.clock.at = START + 3 * MIN;
    await s.tick();
    expect(await s.status(u.token)).toMatchObject({
      failures: 3,
      paused: true,
      nextDueAt: null,
      lastError: TOKEN_REJECTED,
    });
    expect(s.calls).toHaveLength(3);
    for (const later of [4, 60, 6 * 60]) {
      s.clock.at = START + later * MIN;
      expect(await s.tick()).toBe(0);
    }
    expect(s.calls).toHaveLength(3);

    // A new token saved in Settings resumes it at the next tick.
    failing = false;
    s.clock.at = START + 7 * 60 * MIN;
    const saved = await s.t.call(u.token, {
      method: 'POST',
      url: '/api/v1/account/update_info',
      payload: {
        default_ai_platfrom: 'openai',
        default_trading_platfrom: 'OANDA',
        oanda: { accessToken: 'a-new-token', accountId: '', mode: 'demo' },
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(await s.tick()).toBe(1);
    expect(await s.status(u.token)).toMatchObject({ failures: 0, paused: false, lastError: null });
  });

  it('a non-token failure keeps its own message and pauses with a clear one', async () => {
    const s = await setup(
      async () => {
        throw new AppError(504, 'OANDA_TIMEOUT', 'OANDA did not answer in time. Try again in a moment.');
      },
      { maxFailures: 2 },
    );
    const u = await s.user();
    await s.tick();
    expect((await s.status(u.token)).lastError).toBe('OANDA did not answer in time. Try again in a moment.');
    s.clock.at = START + MIN;
    await s.tick();
    expect((await s.status(u.token)).lastError).toBe(
      'Background sync paused after 2 failed attempts: OANDA did not answer in time. Try again in a moment. ' +
        'Sync manually or save your OANDA settings again to resume.',
    );
  });

  it('shows a running sync with its progress, and refuses a manual sync meanwhile', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const s = await setup(async (_userId, onPage) => {
      onPage(500);
      onPage(200);
      await gate;
    });
    const u = await s.user();
    expect(await s.jobs.queue.tick()).toBe(1);
    let running: SyncStatus['running'] = null;
    for (let i = 0; i < 300 && running?.pages !== 2; i += 1) {
      await new Promise((r) => setTimeout(r, 10));
      running = (await s.status(u.token)).running;
    }
    expect(running).toEqual({ startedAt: iso(START), pages: 2, trades: 700 });
    // Queued once: another tick while it runs adds nothing.
    expect(await s.jobs.queue.tick()).toBe(0);
    const manual = await s.t.call(u.token, { method: 'GET', url: '/api/v1/trade/sync_trade' });
    expect(manual.statusCode).toBe(409);
    expect(manual.json<{ message: string }>().message).toBe(
      'A sync is already running for your account. Wait for it to finish.',
    );
    release();
    await s.jobs.queue.idle();
    expect(await s.status(u.token)).toMatchObject({ running: null, lastSyncedAt: iso(START) });
    expect(s.calls).toEqual([u.id]);
  });

  it('runs at most maxConcurrent syncs at once, and one per OANDA token', async () => {
    let now = 0;
    let most = 0;
    const byToken = new Map<string, number>();
    let sharedMost = 0;
    const tokenOf = new Map<string, string>();
    const s = await setup(
      async (userId) => {
        now += 1;
        most = Math.max(most, now);
        const tok = tokenOf.get(userId)!;
        byToken.set(tok, (byToken.get(tok) ?? 0) + 1);
        if (tok === 'shared') sharedMost = Math.max(sharedMost, byToken.get(tok)!);
        await new Promise((r) => setTimeout(r, 20));
        byToken.set(tok, byToken.get(tok)! - 1);
        now -= 1;
      },
      { maxConcurrent: 2 },
    );
    for (let i = 0; i < 4; i += 1) tokenOf.set((await s.user(`token-${i}`)).id, `token-${i}`);
    for (let i = 0; i < 2; i += 1) tokenOf.set((await s.user('shared')).id, 'shared');
    expect(await s.tick()).toBe(6);
    expect(s.calls).toHaveLength(6);
    expect(most).toBe(2);
    expect(sharedMost).toBe(1);
  });
});
