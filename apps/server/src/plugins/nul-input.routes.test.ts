import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

/*
 * A NUL character (U+0000) in any field is refused with a 400 naming the field, on SQLite and PostgreSQL alike:
 * PostgreSQL cannot store one in text and answered 500 from the database (found by the junk corpus run there).
 */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await t.user()).token;
});
afterAll(() => t.close());

const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

describe('a NUL character in a request', () => {
  it.each([
    ['a body field', 'POST', '/api/v1/auth/check_username_exist', { username: 'a\u0000b' }, 'username'],
    ['a body field', 'POST', '/api/v1/auth/check_email_exist', { email: 'a\u0000@example.com' }, 'email'],
    ['a path parameter', 'POST', `/api/v1/journal/delete_tag/${encodeURIComponent('x\u0000')}`, undefined, 'tagId'],
    [
      'a query string value',
      'GET',
      '/api/v1/trade/get_trade_history?page=1&instrument=EUR%00USD',
      undefined,
      'instrument',
    ],
    ['a body field', 'POST', '/api/v1/journal/create_tag', { name: 'ok\u0000', kind: 'setup' }, 'name'],
  ])('in %s of %s %s → 400 naming the field', async (_what, method, url, payload, field) => {
    const res = await t.call(token, { method: method, url, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<{ code: string; message: string; issues: Array<{ path: string; message: string }> }>();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.issues[0]).toEqual({ path: field, message: `${field}: ${NUL_MESSAGE}` });
  });

  it('answers a body nested 300,000 levels deep with the schema’s 400, not a 500', async () => {
    const payload = `{"username":${'['.repeat(300_000)}${']'.repeat(300_000)}}`;
    const res = await t.call(undefined, {
      method: 'POST',
      url: '/api/v1/auth/check_username_exist',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ issues: Array<{ path: string }> }>().issues[0]?.path).toBe('username');
  });

  it('finds a NUL deep inside an array', async () => {
    const res = await t.call(undefined, {
      method: 'POST',
      url: '/api/v1/auth/check_username_exist',
      payload: { username: 'ok', extra: [{ a: ['x', 'y\u0000'] }] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ issues: Array<{ path: string }> }>().issues[0]?.path).toBe('extra.0.a.1');
  });

  it('leaves text without NUL as it was (other control characters are the schemas’ business)', async () => {
    const res = await t.call(undefined, {
      method: 'POST',
      url: '/api/v1/auth/check_username_exist',
      payload: { username: 'nobody-here' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
