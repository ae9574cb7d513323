import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authPlugin, userId } from './auth';
import { registerErrorHandling } from './error-handler';

/*
 * requireUser remembers a verified token (by the whole Authorization header) for a minute: the remembered answer
 * must never outlive the token's `exp`, and a header it has not verified is verified on its own.
 */
const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';

async function appWith(ttlSeconds: number, secret = SECRET): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { secret, ttlSeconds });
  app.get('/me', { onRequest: app.requireUser }, (request) => ({ id: userId(request) }));
  await app.ready();
  return app;
}

const me = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: '/me', headers: { authorization: `Bearer ${token}` } });

describe('requireUser', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T08:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers from a remembered token until its exp, then refuses it', async () => {
    const app = await appWith(30);
    const token = app.jwt.sign({ sub: 'user-1', username: 'alice' });
    expect((await me(app, token)).json()).toEqual({ id: 'user-1' });
    vi.setSystemTime(new Date('2026-11-25T08:00:29Z'));
    expect((await me(app, token)).json()).toEqual({ id: 'user-1' });
    vi.setSystemTime(new Date('2026-11-25T08:00:31Z'));
    const expired = await me(app, token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    await app.close();
  });

  it('verifies each header on its own: a forged signature or another secret is refused beside a good token', async () => {
    const app = await appWith(3600);
    const other = await appWith(3600, 'another-secret-of-at-least-thirty-two-characters');
    const good = app.jwt.sign({ sub: 'user-1', username: 'alice' });
    expect((await me(app, good)).statusCode).toBe(200);
    const [header, payload] = good.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 'user-2', username: 'mallory', exp: 9e9 })).toString(
      'base64url',
    );
    expect((await me(app, `${header}.${forgedPayload}.${good.split('.')[2]}`)).statusCode).toBe(401);
    expect((await me(app, `${header}.${payload}.AAAA`)).statusCode).toBe(401);
    expect((await me(app, other.jwt.sign({ sub: 'user-1', username: 'alice' }))).statusCode).toBe(401);
    expect((await me(app, good)).json()).toEqual({ id: 'user-1' });
    await app.close();
    await other.close();
  });

  it('refuses a request without a token', async () => {
    const app = await appWith(60);
    const res = await app.inject({ method: 'GET', url: '/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json<{ message: string }>().message).toBe('Please sign in to continue.');
    await app.close();
  });
});
