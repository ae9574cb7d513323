import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

/** Several instances behind one address must share the sign-in limits: they meet in Redis. */
const redisUrl = process.env.PIPSENSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const reachable = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl);
  const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 500 });
  socket.on('connect', () => (socket.destroy(), resolve(true)));
  socket.on('error', () => resolve(false));
  socket.on('timeout', () => (socket.destroy(), resolve(false)));
});

describe.skipIf(!reachable)('rate limits shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ REDIS_URL: redisUrl }, { credentialLimit: 4 });
    b = await createTestApp({ REDIS_URL: redisUrl }, { credentialLimit: 4 });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('counts attempts made on two instances together', async () => {
    const username = `victim${randomUUID().slice(0, 8)}`;
    const attempt = (t: TestApp, i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username, password: 'guess guess' },
        remoteAddress: `10.1.${i}.1`,
      });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await attempt(i % 2 ? a : b, i)).statusCode);
    expect(codes).toEqual([401, 401, 401, 401]);
    const blocked = await attempt(a, 9);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('rate limits when Redis is down', () => {
  it('still lets users sign in (fails open) instead of answering 500', async () => {
    const t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' }, { credentialLimit: 4 });
    try {
      const u = await t.user();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: u.username, password: u.password },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
