import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

/*
 * SECURITY.md, Account enumeration and Credential stuffing and lock-outs: the availability checks are limited per IP;
 * X-Forwarded-For is believed only from the proxies TRUST_PROXY names; the per-username counter counts only real
 * password failures, so a client blocked for its IP cannot keep someone else's account locked.
 */
const open: TestApp[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});
async function app(...args: Parameters<typeof createTestApp>): Promise<TestApp> {
  const t = await createTestApp(...args);
  open.push(t);
  return t;
}

const login = (t: TestApp, username: string, password: string, ip: string, forwardedFor?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username, password },
    remoteAddress: ip,
    ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
  });
const stranger = () => `nobody${randomUUID().slice(0, 8)}`;

describe('the username and email availability checks', () => {
  it('answer 30 a minute per IP, then 429 with a clear message and Retry-After; another IP is not affected', async () => {
    const t = await app();
    const check = (ip: string, n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/check_email_exist',
        payload: { email: `probe${n}@example.com` },
        remoteAddress: ip,
      });
    for (let n = 0; n < 30; n += 1) expect((await check('10.20.0.1', n)).statusCode).toBe(200);
    const refused = await check('10.20.0.1', 30);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      success: false,
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many username or email checks from your network\. Please wait \d+ seconds/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await check('10.20.0.2', 31)).statusCode).toBe(200);
    // The username check keeps its own count.
    const username = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/check_username_exist',
      payload: { username: 'free_name' },
      remoteAddress: '10.20.0.1',
    });
    expect(username.statusCode).toBe(200);
    for (let n = 0; n < 30; n += 1)
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/check_username_exist',
        payload: { username: `free_name${n}` },
        remoteAddress: '10.20.0.1',
      });
    const refusedName = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/check_username_exist',
      payload: { username: 'free_name_x' },
      remoteAddress: '10.20.0.1',
    });
    expect(refusedName.statusCode).toBe(429);
  });
});

describe('X-Forwarded-For and TRUST_PROXY', () => {
  it('without TRUST_PROXY, a spoofed X-Forwarded-For does not escape the per-IP limit', async () => {
    const t = await app({}, { credentialLimit: 3 });
    for (let i = 0; i < 3; i += 1)
      expect((await login(t, stranger(), 'guess guess', '10.30.0.1', `203.0.113.${i}`)).statusCode).toBe(401);
    const blocked = await login(t, stranger(), 'guess guess', '10.30.0.1', '203.0.113.99');
    expect(blocked.statusCode).toBe(429);
  });

  it('with TRUST_PROXY=1, each client behind the proxy has its own bucket', async () => {
    const t = await app({ TRUST_PROXY: '1' }, { credentialLimit: 3 });
    for (let i = 0; i < 6; i += 1)
      expect((await login(t, stranger(), 'guess guess', '10.30.0.1', `203.0.113.${i}`)).statusCode).toBe(401);
    for (let i = 0; i < 3; i += 1)
      expect((await login(t, stranger(), 'guess guess', '10.30.0.1', '198.51.100.7')).statusCode).toBe(401);
    expect((await login(t, stranger(), 'guess guess', '10.30.0.1', '198.51.100.7')).statusCode).toBe(429);
  });

  it('with a TRUST_PROXY list, X-Forwarded-For is believed only from the listed proxies', async () => {
    const t = await app({ TRUST_PROXY: '10.40.0.0/16, 192.0.2.10' }, { credentialLimit: 3 });
    for (let i = 0; i < 5; i += 1)
      expect((await login(t, stranger(), 'guess guess', '10.40.1.2', `203.0.113.${i}`)).statusCode).toBe(401);
    for (let i = 0; i < 3; i += 1)
      expect((await login(t, stranger(), 'guess guess', '172.16.0.9', `203.0.113.${i}`)).statusCode).toBe(401);
    expect((await login(t, stranger(), 'guess guess', '172.16.0.9', '203.0.113.50')).statusCode).toBe(429);
  });

  it('refuses a TRUST_PROXY that is neither a hop count nor a list of addresses', async () => {
    await expect(createTestApp({ TRUST_PROXY: 'yes please' })).rejects.toThrow(
      /TRUST_PROXY: must be a hop count \(e\.g\. 1\) or a comma-separated list of proxy IPs and CIDR ranges/,
    );
  });
});

describe('the per-username counter', () => {
  it('counts only password failures: successful sign-ins never lock the account', async () => {
    const t = await app({}, { credentialLimit: 3 });
    const u = await t.user();
    for (let i = 0; i < 6; i += 1)
      expect((await login(t, u.username, u.password, `10.50.0.${i}`)).statusCode, `sign-in ${i + 1}`).toBe(200);
  });

  it('is not moved by a client already blocked for its IP: the victim still signs in', async () => {
    const t = await app({}, { credentialLimit: 3 });
    const victim = await t.user();
    for (let i = 0; i < 3; i += 1)
      expect((await login(t, stranger(), 'guess guess', '10.60.0.1')).statusCode).toBe(401);
    for (let i = 0; i < 10; i += 1)
      expect((await login(t, victim.username, 'guess guess', '10.60.0.1')).statusCode).toBe(429);
    expect((await login(t, victim.username, victim.password, '10.60.0.2')).statusCode).toBe(200);
  });

  it('still locks a username after its limit of wrong passwords, from any IP', async () => {
    const t = await app({}, { credentialLimit: 3 });
    const victim = await t.user();
    for (let i = 0; i < 3; i += 1)
      expect((await login(t, victim.username, 'guess guess', `10.70.0.${i}`)).statusCode).toBe(401);
    const locked = await login(t, victim.username, victim.password, '10.70.0.9');
    expect(locked.statusCode).toBe(429);
    expect(locked.json<{ message: string }>().message).toMatch(/^Too many attempts\. Please wait \d+ seconds/);
  });
});
