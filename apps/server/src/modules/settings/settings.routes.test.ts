import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ OPENAI_API_KEY: 'sk-test', VERTEX_PROJECT: '' });
});
afterAll(() => t.close());

const getInfo = (token: string) => t.call(token, { method: 'GET', url: '/api/v1/account/get_info' });
const saveInfo = (token: string, payload: object) =>
  t.call(token, { method: 'POST', url: '/api/v1/account/update_info', payload });
const record = (oanda: object, ai = 'openai') => ({
  default_ai_platfrom: ai,
  default_trading_platfrom: 'OANDA',
  oanda,
});

describe('the info record', () => {
  it('starts with openai and OANDA and tells which providers the server has', async () => {
    const u = await t.user();
    const res = await getInfo(u.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: {
        default_ai_platfrom: 'openai',
        default_trading_platfrom: 'OANDA',
        oanda: { accessToken: '', accountId: '', mode: '' },
      },
      providers: { openai: { configured: true }, vertexai: { configured: false } },
    });
  });

  it('stores the access token encrypted, returns it masked, and keeps it when the mask is sent back', async () => {
    const u = await t.user();
    const token = 'abcd1234efgh5678-0123456789abcdef0123456789abcdef';
    const saved = await saveInfo(
      u.token,
      record({ accessToken: token, accountId: '101-004-1234567-001', mode: 'demo' }),
    );
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ success: true, message: 'Configuration updated successfully' });
    const masked = (await getInfo(u.token)).json<{ data: { oanda: { accessToken: string } } }>().data.oanda.accessToken;
    expect(masked).toBe('••••cdef');
    expect(JSON.stringify((await getInfo(u.token)).json())).not.toContain(token);

    const db = (await import('../../db/client')).createDb({ dataDir: t.dataDir, databaseUrl: t.env.DATABASE_URL });
    const stored = await db.kysely.selectFrom('user_info').select('oanda_access_token').execute();
    await db.close();
    expect(stored.some((r) => r.oanda_access_token?.startsWith('v2:'))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(token);

    // 'Make Default' sends the whole record back, masked token included: the stored token stays.
    const again = await saveInfo(
      u.token,
      record({ accessToken: masked, accountId: '101-004-1234567-001', mode: 'demo' }, 'vertexai'),
    );
    expect(again.statusCode).toBe(200);
    const after = (await getInfo(u.token)).json<{
      data: { default_ai_platfrom: string; oanda: { accessToken: string } };
    }>().data;
    expect(after.default_ai_platfrom).toBe('vertexai');
    expect(after.oanda.accessToken).toBe('••••cdef');
  });

  it("applies the spec's OANDA rule and changes nothing on a rejected save", async () => {
    const u = await t.user();
    await saveInfo(u.token, record({ accessToken: 'first-token-1111', accountId: '', mode: 'live' }));
    const noToken = await saveInfo(
      u.token,
      record({ accessToken: '', accountId: '101-004-1234567-001', mode: 'demo' }),
    );
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json()).toMatchObject({ success: false, message: 'All fields are required.' });
    const neither = await saveInfo(u.token, record({ accessToken: 'new-token-2222', accountId: '', mode: '' }));
    expect(neither.json()).toMatchObject({ success: false, message: 'All fields are required.' });
    const badAccount = await saveInfo(
      u.token,
      record({ accessToken: 'new-token-2222', accountId: 'abc', mode: 'demo' }),
    );
    expect(badAccount.statusCode).toBe(400);
    expect(badAccount.json<{ message: string }>().message).toMatch(/Account ID/);
    const badAi = await saveInfo(
      u.token,
      record({ accessToken: 'new-token-2222', accountId: '', mode: 'demo' }, 'skynet'),
    );
    expect(badAi.json<{ message: string }>().message).toMatch(/default_ai_platfrom/);
    const info = (await getInfo(u.token)).json<{ data: { oanda: object } }>().data.oanda;
    expect(info).toEqual({ accessToken: '••••1111', accountId: '', mode: 'live' });
  });

  it('keeps each user to their own record', async () => {
    const a = await t.user();
    const b = await t.user();
    await saveInfo(a.token, record({ accessToken: 'token-of-a-9999', accountId: '', mode: 'demo' }, 'vertexai'));
    const other = (await getInfo(b.token)).json<{
      data: { default_ai_platfrom: string; oanda: { accessToken: string } };
    }>().data;
    expect(other.default_ai_platfrom).toBe('openai');
    expect(other.oanda.accessToken).toBe('');
  });
});

describe('profile and password', () => {
  it('updates username and email, refusing ones another user has', async () => {
    const a = await t.user();
    const b = await t.user();
    const update = (payload: object) =>
      t.call(a.token, { method: 'POST', url: '/api/v1/account/update_username_email', payload });
    expect((await update({ new_username: b.username, new_email: a.email })).json()).toMatchObject({
      success: false,
      message: 'Username already exists',
    });
    expect((await update({ new_username: a.username, new_email: b.email })).json()).toMatchObject({
      success: false,
      message: 'Email already exists',
    });
    const ok = await update({ new_username: `${a.username}x`, new_email: `x${a.email}` });
    expect(ok.json()).toMatchObject({ success: true, message: 'Profile updated successfully' });
    const me = await t.call(a.token, { method: 'GET', url: '/api/v1/auth/me' });
    expect(me.json()).toMatchObject({ data: { username: `${a.username}x`, email: `x${a.email}` } });
  });

  it('changes the password: the old one stops working, the new one works', async () => {
    const u = await t.user();
    const res = await t.call(u.token, {
      method: 'POST',
      url: '/api/v1/account/update_password',
      payload: { current_password: u.password, new_password: 'brand new password' },
    });
    expect(res.json()).toEqual({ success: true, message: 'Password changed successfully', token: expect.any(String) });
    const login = (password: string) =>
      t.call(undefined, { method: 'POST', url: '/api/v1/auth/login', payload: { username: u.username, password } });
    expect((await login(u.password)).statusCode).toBe(401);
    expect((await login('brand new password')).statusCode).toBe(200);
    const short = await t.call(res.json<{ token: string }>().token, {
      method: 'POST',
      url: '/api/v1/account/update_password',
      payload: { current_password: 'brand new password', new_password: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json<{ message: string }>().message).toBe('Password must be 8–128 characters.');
  });

  it('requires a session for every account call', async () => {
    for (const url of ['/api/v1/account/get_info', '/api/v1/auth/me'])
      expect((await t.call(undefined, { method: 'GET', url })).statusCode).toBe(401);
    const res = await t.call(undefined, { method: 'POST', url: '/api/v1/account/update_info', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});
