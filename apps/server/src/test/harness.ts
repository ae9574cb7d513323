import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { envWith, type Env } from '../config/env';
import { createDb, type Db } from '../db/client';
import { buildApp, type BuildOptions } from '../app';
import { connectOanda, type ApiCall, type OandaUserOptions, type SyncScope } from './oanda-user';

/** Set to a PostgreSQL server URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run the suite there. */
const pgAdminUrl = process.env.PIPSENSE_TEST_PG;
export const testDialect = pgAdminUrl ? 'postgres' : 'sqlite';

/**
 * A PostgreSQL database of its own (empty, not migrated) on the PIPSENSE_TEST_PG server, or on `adminUrl`'s
 * (benchmarks); `drop` removes it.
 */
export async function createPgDatabase(
  adminUrl: string | undefined = pgAdminUrl,
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!adminUrl) throw new Error('createPgDatabase needs a PostgreSQL server URL (PIPSENSE_TEST_PG).');
  const name = `pipsense_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * An empty database of the suite's dialect (SQLite in a temporary dir, or a PostgreSQL database of its own),
 * not migrated; `close` removes it.
 */
export async function createTestDb(): Promise<{ db: Db; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-test-db-'));
  const database = pgAdminUrl ? await createPgDatabase() : undefined;
  const db = createDb({ dataDir, databaseUrl: database?.url });
  return {
    db,
    async close() {
      await db.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  env: Env;
  dataDir: string;
  close(): Promise<void>;
  /** Registers and signs in a fresh user; returns its token and names. */
  user(prefix?: string): Promise<{ token: string; username: string; email: string; password: string }>;
  /** app.inject with a bearer token. */
  call(token: string | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A GET that must answer 200, its JSON body; any other status throws with the body. */
  getOk<T>(token: string, url: string): Promise<T>;
  /** The API as this signed-in user, for the shared set-ups (test/oanda-user.ts). */
  api(token: string): ApiCall;
  /**
   * A fresh user with OANDA connected (test/oanda-user.ts): the info record saved, then accounts and trades synced
   * unless `sync` says otherwise.
   */
  oandaUser(
    options: OandaUserOptions & { sync?: SyncScope | 'none' },
    prefix?: string,
  ): Promise<{ token: string; username: string; email: string; password: string }>;
}

/** An ApiCall through app.inject with a bearer token. */
export function injectApi(app: FastifyInstance, token: string): ApiCall {
  return async ({ method, path, body }) => {
    const res = await app.inject({
      method,
      url: path,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
    return { status: res.statusCode, text: res.body };
  };
}

/** Fixed secrets for test apps on PostgreSQL (never used outside tests). */
export const TEST_SECRETS = {
  JWT_SECRET: 'pipsense-test-jwt-secret-not-for-production-use',
  ENCRYPTION_KEY: '7e57'.repeat(16),
} as const;

export async function createTestApp(
  overrides: Partial<Record<keyof Env, string>> = {},
  options: Omit<BuildOptions, 'env'> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-test-'));
  const database = pgAdminUrl ? await createPgDatabase() : undefined;
  const env = envWith({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dataDir, 'no-web'),
    // The MAE/MFE job off: its candle requests would land in the request logs tests assert on.
    EXCURSION_REQUESTS_PER_MINUTE: '0',
    // PostgreSQL refuses to start without shared secrets (config/env.ts): every test app gets the same fixed ones.
    ...(database ? { DATABASE_URL: database.url, ...TEST_SECRETS } : {}),
    ...overrides,
  });
  const app = await buildApp({ env, logger: false, credentialLimit: 1000, ...options });
  let n = 0;
  const call: TestApp['call'] = (token, opts) =>
    app.inject({
      ...opts,
      headers: { ...(opts.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const user: TestApp['user'] = async (prefix = 'trader') => {
    n += 1;
    const tag = `${prefix}${n}${randomUUID().slice(0, 6)}`;
    const creds = { username: tag, email: `${tag}@example.com`, password: 'correct horse battery' };
    const reg = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: creds });
    if (reg.statusCode !== 200) throw new Error(`register failed: ${reg.body}`);
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: creds.username, password: creds.password },
    });
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
    return { token: login.json<{ token: string }>().token, ...creds };
  };
  return {
    app,
    env,
    dataDir,
    call,
    async getOk<T>(token: string, url: string) {
      const res = await call(token, { method: 'GET', url });
      if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`);
      return res.json<T>();
    },
    user,
    api: (token) => injectApi(app, token),
    async oandaUser(options, prefix) {
      const u = await user(prefix);
      await connectOanda(injectApi(app, u.token), options);
      return u;
    },
    async close() {
      await app.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
