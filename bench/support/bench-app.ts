import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { envWith, type Env } from '../../apps/server/src/config/env';
import { buildApp, type BuildOptions } from '../../apps/server/src/app';

export interface BenchApp {
  app: FastifyInstance;
  dataDir: string;
  call(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Registers and signs in a fresh user; returns its bearer token. */
  user(prefix?: string): Promise<string>;
  /** Saves the user's info record: AI platform and OANDA credentials (account id '' = every account). */
  configure(
    token: string,
    settings: { ai: 'openai' | 'vertexai' | 'gemini'; accessToken: string; accountId?: string },
  ): Promise<void>;
  close(): Promise<void>;
}

/** The real app in this process, as the route tests build it: temporary SQLite data dir, no logger. */
export async function createBenchApp(
  overrides: Partial<Record<keyof Env, string>>,
  options: Omit<BuildOptions, 'env'> = {},
): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-bench-'));
  const env = envWith({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: join(dataDir, 'no-web'), ...overrides });
  const app = await buildApp({ env, logger: false, credentialLimit: 100_000, ...options });

  const call: BenchApp['call'] = (token, opts) =>
    app.inject({ ...opts, headers: { ...(opts.headers ?? {}), authorization: `Bearer ${token}` } });

  const expectOk = (res: LightMyRequestResponse, what: string) => {
    if (res.statusCode !== 200) throw new Error(`${what} answered ${res.statusCode}: ${res.body}`);
    return res;
  };

  return {
    app,
    dataDir,
    call,
    async user(prefix = 'bench') {
      const tag = `${prefix}${randomUUID().replaceAll('-', '').slice(0, 10)}`;
      const creds = { username: tag, email: `${tag}@example.com`, password: 'correct horse battery' };
      expectOk(await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: creds }), 'register');
      const login = expectOk(
        await app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { username: creds.username, password: creds.password },
        }),
        'login',
      );
      return login.json<{ token: string }>().token;
    },
    async configure(token, settings) {
      expectOk(
        await call(token, {
          method: 'POST',
          url: '/api/v1/account/update_info',
          payload: {
            default_ai_platfrom: settings.ai,
            default_trading_platfrom: 'OANDA',
            oanda: { accessToken: settings.accessToken, accountId: settings.accountId ?? '', mode: 'demo' },
          },
        }),
        'update_info',
      );
    },
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
