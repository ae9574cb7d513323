import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import { createUserConcurrency } from '../../lib/user-concurrency';
import { jwtPayload } from '../../security/attack-support';
import { until } from '../../test/until';
import { COMPUTE_CONCURRENCY } from './analytics.service';

/*
 * SECURITY.md, One user starving the others, on SQLite and PostgreSQL: a user's costly Overview work (a filtered view,
 * a snapshot to compute afresh) runs within COMPUTE_CONCURRENCY; beyond it, 429 TOO_MANY_RUNNING with a message saying
 * to wait. A stored snapshot is read whatever the user has running, and another user is not held up. The test takes the
 * user's places itself through the app's own limit, so the route's answer is what is checked.
 */

const limit = createUserConcurrency(COMPUTE_CONCURRENCY);
const { running, queued } = COMPUTE_CONCURRENCY;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { userLimits: { overview: limit } });
});
afterAll(async () => {
  await t?.close();
});

const metrics = (token: string, query = '') =>
  t.call(token, { method: 'GET', url: `/api/v1/dashboard/metrics?timeZone=UTC${query}` });

/** Takes `count` of the user's places with work that ends when the returned function is called. */
function occupy(userId: string, count: number): { release: () => void; done: Promise<unknown> } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const done = Promise.all(Array.from({ length: count }, () => limit.run(userId, () => gate)));
  return { release, done };
}

describe('Overview computations per user', () => {
  it('refuses a costly view with a clear 429 while the user has all places taken; a stored snapshot still reads', async () => {
    const user = await t.user();
    const other = await t.user();
    const userId = String(jwtPayload(user.token).sub);
    // The unfiltered overview in UTC computed and stored before.
    expect((await metrics(user.token)).statusCode).toBe(200);

    const held = occupy(userId, running + queued);
    expect(limit.load(userId)).toEqual({ running, waiting: queued });

    const filtered = await metrics(user.token, '&instrument=EUR_USD');
    expect(filtered.statusCode, filtered.body).toBe(429);
    expect(filtered.json<ErrorBody>()).toMatchObject({
      success: false,
      code: 'TOO_MANY_RUNNING',
      message: 'You already have 6 Overview computations running or waiting. Wait for them to finish, then try again.',
    });
    // A snapshot not computed yet (another zone) costs a computation too.
    const otherZone = await t.call(user.token, { method: 'GET', url: '/api/v1/dashboard/metrics?timeZone=Asia/Tokyo' });
    expect(otherZone.statusCode, otherZone.body).toBe(429);
    expect(otherZone.json<ErrorBody>().code).toBe('TOO_MANY_RUNNING');
    // The stored snapshot is read, not computed: not limited.
    expect((await metrics(user.token)).statusCode).toBe(200);
    // Another user has places of their own.
    expect((await metrics(other.token, '&instrument=EUR_USD')).statusCode).toBe(200);

    held.release();
    await held.done;
    expect(limit.load(userId)).toEqual({ running: 0, waiting: 0 });
    expect((await metrics(user.token, '&instrument=EUR_USD')).statusCode).toBe(200);
  });

  it('queues a filtered view while the running places are taken, and answers it when one frees', async () => {
    const user = await t.user();
    const userId = String(jwtPayload(user.token).sub);
    const held = occupy(userId, running);
    let answered = false;
    const pending = metrics(user.token, '&from=2025-01-01T00:00:00Z').then((res) => {
      answered = true;
      return res;
    });
    await until(() => limit.load(userId).waiting >= 1, 'the filtered view to wait for a place');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);

    held.release();
    const res = await pending;
    expect(res.statusCode, res.body).toBe(200);
    await held.done;
    expect(limit.load(userId)).toEqual({ running: 0, waiting: 0 });
  });
});
