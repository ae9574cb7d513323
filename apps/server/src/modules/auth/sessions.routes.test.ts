import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouteDocs } from '@pipsense/contract';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { seedAccount, seedNote, seedTag, seedTrades, userIdOf } from '../../test/seed-trades';
import { userDataHooks } from '../../app';
import { createSyncJobs } from '../sync-jobs';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (token: string | undefined, url: string, payload: object = {}) =>
  t.call(token, { method: 'POST', url, payload });
const me = (token: string, app = t) => app.call(token, { method: 'GET', url: '/api/v1/auth/me' });
const login = (username: string, password: string) =>
  t.call(undefined, { method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });

/** Every protected route of the API (from the contract's route table), with path parameters filled in. */
const protectedRoutes = Object.entries(apiRouteDocs)
  .filter(([, doc]) => !doc.public)
  .map(([key]) => {
    const [method, path] = key.split(' ') as [string, string];
    return { method: method as 'GET' | 'POST' | 'DELETE', url: path.replace(/:[A-Za-z]+/g, 'x') };
  });

/** The token answers 401 on every protected route. */
async function rejectedEverywhere(token: string, app = t) {
  expect(protectedRoutes.length).toBeGreaterThan(30);
  for (const route of protectedRoutes) {
    const res = await app.call(token, { method: route.method, url: route.url, payload: {} });
    expect({ ...route, status: res.statusCode }).toEqual({ ...route, status: 401 });
    expect(res.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  }
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('session tokens', () => {
  it('carry the session version and an id of their own', async () => {
    const u = await t.user();
    const again = (await login(u.username, u.password)).json<{ token: string }>().token;
    expect(claimsOf(u.token)).toMatchObject({ sv: 0, jti: expect.any(String) });
    expect(claimsOf(again).jti).not.toBe(claimsOf(u.token).jti);
  });
});

describe('change password', () => {
  it('needs the current password: missing or wrong → 400 and nothing changes', async () => {
    const u = await t.user();
    const missing = await post(u.token, '/api/v1/account/update_password', { new_password: 'a brand new secret' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toBe('Current Password is required.');
    const wrong = await post(u.token, '/api/v1/account/update_password', {
      current_password: 'not my password',
      new_password: 'a brand new secret',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      success: false,
      code: 'WRONG_PASSWORD',
      message: 'Current Password is not correct. Nothing was changed.',
    });
    expect((await login(u.username, u.password)).statusCode).toBe(200);
    expect((await login(u.username, 'a brand new secret')).statusCode).toBe(401);
    expect((await me(u.token)).statusCode).toBe(200);
  });

  it('ends every older session and answers a fresh token', async () => {
    const u = await t.user();
    const other = (await login(u.username, u.password)).json<{ token: string }>().token;
    const res = await post(u.token, '/api/v1/account/update_password', {
      current_password: u.password,
      new_password: 'a brand new secret',
    });
    expect(res.statusCode).toBe(200);
    const { token, message } = res.json<{ token: string; message: string }>();
    expect(message).toBe('Password changed successfully');
    expect(claimsOf(token).sv).toBe(1);
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(u.token)).json()).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Your session has ended. Please sign in again.',
    });
    await rejectedEverywhere(other);
    expect((await login(u.username, u.password)).statusCode).toBe(401);
    expect((await login(u.username, 'a brand new secret')).statusCode).toBe(200);
  });
});

describe('logout', () => {
  it('revokes the calling token only', async () => {
    const u = await t.user();
    const other = (await login(u.username, u.password)).json<{ token: string }>().token;
    const res = await post(u.token, '/api/v1/auth/logout');
    expect(res.json()).toEqual({ success: true, message: 'You are signed out.' });
    await rejectedEverywhere(u.token);
    expect((await me(other)).statusCode).toBe(200);
    // Signing out twice is a 401: the token is no session any more.
    expect((await post(u.token, '/api/v1/auth/logout')).statusCode).toBe(401);
  });

  it('log out everywhere revokes every token of the user, and no one else’s', async () => {
    const u = await t.user();
    const bystander = await t.user();
    const other = (await login(u.username, u.password)).json<{ token: string }>().token;
    const res = await post(u.token, '/api/v1/auth/logout_all');
    expect(res.statusCode).toBe(200);
    await rejectedEverywhere(u.token);
    await rejectedEverywhere(other);
    expect((await me(bystander.token)).statusCode).toBe(200);
    const fresh = (await login(u.username, u.password)).json<{ token: string }>().token;
    expect((await me(fresh)).statusCode).toBe(200);
  });

  it('refuses without a session', async () => {
    expect((await post(undefined, '/api/v1/auth/logout')).statusCode).toBe(401);
    expect((await post(undefined, '/api/v1/auth/logout_all')).statusCode).toBe(401);
  });
});

/** Rows in any text column of any table of the schema holding this value (the user's id), table by table. */
async function rowsHolding(kysely: Kysely<Database>, value: string): Promise<Record<string, number>> {
  const tables = await kysely.introspection.getTables();
  const found: Record<string, number> = {};
  for (const table of tables.filter((x) => !x.isView && (x.schema === undefined || x.schema === 'public'))) {
    const columns = table.columns.filter((c) => /char|text|uuid/i.test(c.dataType));
    if (columns.length === 0) continue;
    const where = sql.join(
      columns.map((c) => sql`${sql.ref(c.name)} = ${value}`),
      sql` or `,
    );
    const query = sql<{ n: number | string }>`select count(*) as n from ${sql.table(table.name)} where ${where}`;
    const n = Number((await query.execute(kysely)).rows[0]?.n ?? 0);
    if (n > 0) found[table.name] = n;
  }
  return found;
}

describe('delete account', () => {
  let store: Awaited<ReturnType<typeof createTestDb>>;
  let d: TestApp;
  beforeAll(async () => {
    store = await createTestDb();
    d = await createTestApp({}, { db: store.db });
  });
  afterAll(async () => {
    await d.close();
    await store.close();
  });

  /** A user with a row in as many tables as the API and the seeds reach. */
  async function busyUser() {
    const u = await d.user();
    const id = await userIdOf(store.db.kysely, u.username);
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      d.call(u.token, { method, url, ...(payload ? { payload } : {}) });
    expect((await call('POST', '/api/v1/account/update_time_zone', { timeZone: 'Europe/London' })).statusCode).toBe(
      200,
    );
    expect((await call('POST', '/api/v1/sync/schedule', { interval: '1h' })).statusCode).toBe(200);
    expect((await call('POST', '/api/v1/chat/create_chat', { title: 'Mine', topic: 'trading' })).statusCode).toBe(200);
    expect((await call('POST', '/api/v1/support/feedback', { message: 'Love it' })).statusCode).toBe(200);
    const key = await seedAccount(store.db.kysely, id, '101-004-1-001');
    await seedTrades(store.db.kysely, id, key, [
      { id: '1', open: '2025-01-02T10:00:00Z', close: '2025-01-02T11:00:00Z' },
    ]);
    await store.db.kysely
      .insertInto('balance_operations')
      .values({
        user_id: id,
        account_key: key,
        operation_id: '7001',
        platform: 'metatrader',
        time: '2025-01-01T08:00:00.000000000Z',
        server_time: '2025-01-01T10:00:00',
        type: 'deposit',
        printed_type: 'balance',
        amount: '1000.00',
        currency: 'USD',
        comment: 'Deposit',
        created_at: '2025-01-03T00:00:00.000Z',
        updated_at: '2025-01-03T00:00:00.000Z',
      })
      .execute();
    const tag = await seedTag(store.db.kysely, id, 'setup', 'Breakout');
    await seedNote(store.db.kysely, id, key, '1', { note: 'good trade', rating: 4 });
    await store.db.kysely
      .insertInto('trade_tags')
      .values({ user_id: id, account_key: key, trade_id: '1', tag_id: tag, created_at: '2025-01-03T00:00:00.000Z' })
      .execute();
    expect((await call('GET', '/api/v1/dashboard/metrics')).statusCode).toBe(200);
    const second = (
      await d.call(undefined, {
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: u.username, password: u.password },
      })
    ).json<{ token: string }>().token;
    expect((await d.call(second, { method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(200);
    return { ...u, id, call };
  }

  it('needs the password: wrong or missing → 400 and nothing is deleted', async () => {
    const u = await busyUser();
    const before = await rowsHolding(store.db.kysely, u.id);
    const wrong = await u.call('POST', '/api/v1/account/delete_account', { password: 'not it at all' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ message: string }>().message).toBe('The password is not correct. Nothing was changed.');
    const missing = await u.call('POST', '/api/v1/account/delete_account', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toBe('Password is required.');
    expect(await rowsHolding(store.db.kysely, u.id)).toEqual(before);
    expect((await me(u.token, d)).statusCode).toBe(200);
  });

  it('removes every row of the user in every table, ends its sessions, and leaves others alone', async () => {
    const u = await busyUser();
    const other = await busyUser();
    const before = await rowsHolding(store.db.kysely, u.id);
    // The user's data spans the schema: each of these tables holds a row of theirs before the deletion.
    for (const table of [
      'users',
      'user_info',
      'broker_accounts',
      'trades',
      'balance_operations',
      'chats',
      'journal_tags',
      'trade_notes',
      'trade_tags',
      'sync_schedules',
      'revoked_tokens',
      'email_tokens',
      'feedback',
    ])
      expect(before[table], table).toBeGreaterThan(0);
    const otherBefore = await rowsHolding(store.db.kysely, other.id);

    const res = await u.call('POST', '/api/v1/account/delete_account', { password: u.password });
    expect(res.json()).toEqual({ success: true, message: 'Your account and all of its data have been deleted.' });
    expect(await rowsHolding(store.db.kysely, u.id)).toEqual({});
    expect(await rowsHolding(store.db.kysely, other.id)).toEqual(otherBefore);
    await rejectedEverywhere(u.token, d);
    const signIn = await d.call(undefined, {
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: u.username, password: u.password },
    });
    expect(signIn.statusCode).toBe(401);
    expect((await me(other.token, d)).statusCode).toBe(200);
  });

  it("names every table with a user_id column in the schema in one module's deletion hook", async () => {
    const syncJobs = createSyncJobs({
      db: store.db.kysely,
      trading: {} as never,
      settings: {} as never,
      now: () => new Date(),
      log: () => {},
    });
    const named = userDataHooks(syncJobs).flatMap((hook) => hook.tables);
    // Read from the database itself: a table added by a later migration fails here until its module's hook names it.
    const tables = (await store.db.kysely.introspection.getTables())
      .filter((t) => !t.isView && (t.schema === undefined || t.schema === 'public'))
      .filter((t) => t.columns.some((c) => c.name === 'user_id'))
      .map((t) => t.name);
    expect(tables).toEqual(
      expect.arrayContaining(['user_info', 'trades', 'chat_messages', 'feedback', 'email_tokens']),
    );
    expect([...named].sort()).toEqual([...tables].sort());
    expect(new Set(named).size, 'each table in one hook').toBe(named.length);
    // Candles are market data shared by every user (docs/decisions/023-candle-store.md): no user_id, no hook, and a
    // deletion leaves them.
    const all = (await store.db.kysely.introspection.getTables()).map((t) => t.name);
    expect(all).toContain('candles');
    expect(named).not.toContain('candles');
  });
});

describe('several instances', () => {
  /** Two apps on one database, as two server processes would be; `clock` moves both apps' time. */
  async function pair(redis: Partial<Record<'REDIS_URL', string>>) {
    const store = await createTestDb();
    const env = { ...redis, JWT_SECRET: 'one secret shared by both instances, 32+ chars' };
    let clock = Date.now();
    const now = () => new Date(clock);
    const a = await createTestApp(env, { db: store.db, now });
    const b = await createTestApp(env, { db: store.db, now });
    return {
      a,
      b,
      advance: (ms: number) => (clock += ms),
      async close() {
        await a.close();
        await b.close();
        await store.close();
      },
    };
  }

  it('with Redis: a logout on one instance is refused by the other at once', async () => {
    const p = await pair({ REDIS_URL: 'redis://127.0.0.1:6379' });
    try {
      const u = await p.a.user();
      expect((await me(u.token, p.b)).statusCode).toBe(200); // instance B now holds the session in memory
      expect((await p.a.call(u.token, { method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(200);
      await expect.poll(async () => (await me(u.token, p.b)).statusCode, { timeout: 2000, interval: 20 }).toBe(401);
    } finally {
      await p.close();
    }
  });

  it('without Redis: the other instance refuses the token within 30 s', async () => {
    const p = await pair({});
    try {
      const u = await p.a.user();
      expect((await me(u.token, p.b)).statusCode).toBe(200);
      expect((await p.a.call(u.token, { method: 'POST', url: '/api/v1/auth/logout_all' })).statusCode).toBe(200);
      expect((await me(u.token, p.a)).statusCode).toBe(401);
      p.advance(29_000);
      expect((await me(u.token, p.b)).statusCode).toBe(200); // the documented lag: B's copy is younger than 30 s
      p.advance(1_001);
      expect((await me(u.token, p.b)).statusCode).toBe(401);
    } finally {
      await p.close();
    }
  });
});
