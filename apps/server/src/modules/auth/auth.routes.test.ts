import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, token?: string) =>
  t.call(token, { method: 'POST', url, payload: payload as object });

describe('register and login', () => {
  it('registers, signs in and returns a HS256 token with exp 24 h ahead', async () => {
    const creds = { username: 'Alice_1', email: 'Alice1@Example.com', password: 'a long password' };
    const reg = await post('/api/v1/auth/register', creds);
    expect(reg.statusCode).toBe(200);
    expect(reg.json()).toEqual({ success: true, message: 'Registration successful! You can now log in.' });

    const login = await post('/api/v1/auth/login', { username: 'alice_1', password: 'a long password' });
    expect(login.statusCode).toBe(200);
    const { token, success } = login.json<{ token: string; success: boolean }>();
    expect(success).toBe(true);
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>);
    expect(header?.alg).toBe('HS256');
    const now = Date.now() / 1000;
    expect(payload?.exp).toBeGreaterThan(now + 24 * 3600 - 60);
    expect(payload?.exp).toBeLessThan(now + 24 * 3600 + 60);

    const me = await t.call(token, { method: 'GET', url: '/api/v1/auth/me' });
    expect(me.json()).toMatchObject({ success: true, data: { username: 'Alice_1', email: 'alice1@example.com' } });
  });

  it('refuses a taken username (any case) and a taken email', async () => {
    const u = await t.user();
    const again = await post('/api/v1/auth/register', {
      username: u.username.toUpperCase(),
      email: 'new@example.com',
      password: 'a long password',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, message: 'Username already exists.', code: 'USERNAME_TAKEN' });
    const email = await post('/api/v1/auth/register', {
      username: 'fresh_name',
      email: u.email.toUpperCase(),
      password: 'a long password',
    });
    expect(email.json()).toMatchObject({ success: false, message: 'Email already exists.' });
  });

  it('rejects bad input with a message naming the field, and stores nothing', async () => {
    const bad = await post('/api/v1/auth/register', {
      username: 'ok_name',
      email: 'not-an-email',
      password: 'a long password',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('Enter a valid email address.');
    const short = await post('/api/v1/auth/register', {
      username: 'ok_name',
      email: 'ok@example.com',
      password: 'short',
    });
    expect(short.json<{ message: string }>().message).toBe('Password must be 8–128 characters.');
    const exists = await post('/api/v1/auth/check_username_exist', { username: 'ok_name' });
    expect(exists.json()).toMatchObject({ success: true, exists: false });
    const missing = await post('/api/v1/auth/login', { username: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toMatch(/password/i);
  });

  it('gives one message for a wrong password and an unknown user', async () => {
    const u = await t.user();
    const wrong = await post('/api/v1/auth/login', { username: u.username, password: 'wrong password' });
    const unknown = await post('/api/v1/auth/login', { username: 'nobody_here', password: 'wrong password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json<{ message: string }>().message).toBe('Invalid username or password.');
    expect(unknown.json<{ message: string }>().message).toBe('Invalid username or password.');
  });

  it('answers the existence lookups', async () => {
    const u = await t.user();
    expect((await post('/api/v1/auth/check_username_exist', { username: u.username })).json()).toMatchObject({
      exists: true,
    });
    expect((await post('/api/v1/auth/check_email_exist', { email: u.email.toUpperCase() })).json()).toMatchObject({
      exists: true,
    });
    expect((await post('/api/v1/auth/check_email_exist', { email: 'free@example.com' })).json()).toMatchObject({
      exists: false,
    });
  });
});

describe('the session guard', () => {
  it('answers 401 envelopes for a missing, forged or expired token', async () => {
    const none = await t.call(undefined, { method: 'GET', url: '/api/v1/auth/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });

    const u = await t.user();
    const [h, p] = u.token.split('.');
    const forged = await t.call(`${h}.${p}.AAAA`, { method: 'GET', url: '/api/v1/auth/me' });
    expect(forged.statusCode).toBe(401);

    const none256 = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    expect((await t.call(none256, { method: 'GET', url: '/api/v1/account/get_info' })).statusCode).toBe(401);

    const expired = t.app.jwt.sign({ sub: 'x', username: 'x' }, { expiresIn: -10 });
    expect((await t.call(expired, { method: 'GET', url: '/api/v1/auth/me' })).statusCode).toBe(401);
  });
});

describe('the HTTP contract', () => {
  it('answers unknown API paths with a 404 envelope', async () => {
    const res = await t.call(undefined, { method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect(typeof res.json<{ requestId: string }>().requestId).toBe('string');
  });

  it('refuses bodies over 1 MiB with 413', async () => {
    const res = await post('/api/v1/auth/login', { username: 'x', password: 'y'.repeat(1024 * 1024 + 10) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false });
  });

  it('answers malformed JSON with a 400 envelope that leaks no internals', async () => {
    const res = await t.call(undefined, {
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/stack|SyntaxError|node_modules|\n\s+at /);
  });

  it('sends the security headers', async () => {
    const res = await t.call(undefined, { method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain("unsafe-inline';script");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});

describe('rate limits', () => {
  it('limits sign-in attempts per username with 429 and Retry-After', async () => {
    const limited = await createTestApp({}, { credentialLimit: 3 });
    try {
      const attempt = (ip: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { username: 'victim', password: 'guess guess' },
          remoteAddress: ip,
        });
      for (let i = 0; i < 3; i++) expect((await attempt(`10.0.0.${i}`)).statusCode).toBe(401);
      const blocked = await attempt('10.0.0.99');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBeDefined();
      expect(blocked.json<{ message: string }>().message).toMatch(/Too many attempts/);
    } finally {
      await limited.close();
    }
  });
});
