import { createCipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createDb, type Db } from '../../db/client';
import { createCipher } from '../../lib/crypto';
import { createTestApp, type TestApp } from '../../test/harness';
import { UNREADABLE_TOKEN_NOTICE } from './settings.service';

/*
 * SECURITY.md, Secrets at rest: the stored OANDA token is sealed with AES-GCM and its user's id as associated data. A
 * ciphertext copied into another user's row, or sealed with another key, reads as "not configured, enter it again"
 * (never a 500), and update_info replaces it; tokens sealed before (v1) are re-sealed at startup.
 */
let t: TestApp;
let db: Db;
beforeAll(async () => {
  t = await createTestApp();
  db = createDb({ dataDir: t.dataDir, databaseUrl: t.env.DATABASE_URL });
});
afterAll(async () => {
  await db.close();
  await t.close();
});

const OANDA = { accountId: '101-004-1234567-001', mode: 'demo' };
const record = (accessToken: string) => ({
  default_ai_platfrom: 'openai',
  default_trading_platfrom: 'OANDA',
  oanda: { accessToken, ...OANDA },
});
const getInfo = (token: string) => t.call(token, { method: 'GET', url: '/api/v1/account/get_info' });
const saveInfo = (token: string, payload: object) =>
  t.call(token, { method: 'POST', url: '/api/v1/account/update_info', payload });

async function userIdOf(username: string): Promise<string> {
  const row = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}
const storedToken = async (userId: string) =>
  (
    await db.kysely
      .selectFrom('user_info')
      .select('oanda_access_token')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
  ).oanda_access_token;
const setStoredToken = (userId: string, value: string) =>
  db.kysely.updateTable('user_info').set({ oanda_access_token: value }).where('user_id', '=', userId).execute();

/** The app's own key: from env on PostgreSQL (the harness's fixed one), from DATA_DIR on SQLite. */
const appKey = () =>
  Buffer.from(t.env.ENCRYPTION_KEY ?? readFileSync(join(t.dataDir, 'encryption-key'), 'utf8').trim(), 'hex');

async function expectNotConfigured(token: string) {
  const res = await getInfo(token);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({
    success: true,
    data: { oanda: { accessToken: '', ...OANDA } },
    oandaNotice: UNREADABLE_TOKEN_NOTICE,
  });
}

describe('the OANDA token bound to its user', () => {
  it('stores v2 ciphertexts that decrypt only in their own row', async () => {
    const a = await t.user('alice');
    const b = await t.user('bob');
    expect((await saveInfo(a.token, record('alice-token-aaaa-1111'))).statusCode).toBe(200);
    expect((await saveInfo(b.token, record('bob-token-bbbb-2222'))).statusCode).toBe(200);
    const aId = await userIdOf(a.username);
    const bId = await userIdOf(b.username);
    const aSealed = (await storedToken(aId))!;
    expect(aSealed).toMatch(/^v2:/);

    // Alice's ciphertext copied into Bob's row: Bob's settings show no token, with the notice; no 500 anywhere.
    await setStoredToken(bId, aSealed);
    await expectNotConfigured(b.token);
    const sync = await t.call(b.token, { method: 'GET', url: '/api/v1/account/sync_account' });
    expect(sync.statusCode).toBe(400);
    expect(sync.json()).toMatchObject({ code: 'OANDA_NOT_CONFIGURED' });
    expect(sync.body).not.toContain('alice-token');

    // Alice still reads hers.
    expect((await getInfo(a.token)).json()).toMatchObject({ data: { oanda: { accessToken: '••••1111' } } });
    expect((await getInfo(a.token)).json()).not.toHaveProperty('oandaNotice');

    // Bob enters his token again: replaced, readable, no notice.
    const again = await saveInfo(b.token, record('bob-token-bbbb-3333'));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ data: { oanda: { accessToken: '••••3333' } } });
    expect(again.json()).not.toHaveProperty('oandaNotice');
    expect((await getInfo(b.token)).json()).toMatchObject({ data: { oanda: { accessToken: '••••3333' } } });
  });

  it('reads a token sealed with another key as not configured; saving the rest without a token says to enter it', async () => {
    const c = await t.user('carol');
    await saveInfo(c.token, record('carol-token-cccc-4444'));
    const cId = await userIdOf(c.username);
    await setStoredToken(cId, createCipher(randomBytes(32)).encrypt('carol-token-cccc-4444', cId));
    await expectNotConfigured(c.token);

    // 'Make Default' sends the record back as shown (no token): a clear 400, not 500, and nothing changed.
    const makeDefault = await saveInfo(c.token, { ...record(''), default_ai_platfrom: 'vertexai' });
    expect(makeDefault.statusCode).toBe(400);
    expect(makeDefault.json()).toMatchObject({ code: 'OANDA_TOKEN_UNREADABLE', message: UNREADABLE_TOKEN_NOTICE });

    await setStoredToken(cId, 'v2:not:a:ciphertext');
    await expectNotConfigured(c.token);
    expect((await saveInfo(c.token, record('carol-token-cccc-5555'))).statusCode).toBe(200);
    expect((await getInfo(c.token)).json()).toMatchObject({ data: { oanda: { accessToken: '••••5555' } } });
  });

  it('re-seals tokens stored the v1 way (no associated data) at startup, bound to their user', async () => {
    const d = await t.user('dave');
    await saveInfo(d.token, record('dave-token-dddd-6666'));
    const dId = await userIdOf(d.username);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', appKey(), iv);
    const body = Buffer.concat([cipher.update('dave-token-dddd-6666', 'utf8'), cipher.final()]);
    const v1 = ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')];
    await setStoredToken(dId, v1.join(':'));
    // Before the upgrade a v1 value is not accepted on read (it would decrypt in any row).
    await expectNotConfigured(d.token);

    const restarted = await buildApp({ env: t.env, db, logger: false });
    try {
      const sealed = (await storedToken(dId))!;
      expect(sealed).toMatch(/^v2:/);
      expect(createCipher(appKey()).decrypt(sealed, dId)).toBe('dave-token-dddd-6666');
      const res = await restarted.inject({
        method: 'GET',
        url: '/api/v1/account/get_info',
        headers: { authorization: `Bearer ${d.token}` },
      });
      expect(res.json()).toMatchObject({ data: { oanda: { accessToken: '••••6666' } } });
    } finally {
      await restarted.close();
    }
  });
});
