import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { envWith, EnvError, loadEnv } from '../config/env';
import { createTestApp, type TestApp } from '../test/harness';

/*
 * Instances behind a reverse proxy (README "Running at scale"): with TRUST_PROXY the per-IP sign-in limit counts
 * each client (X-Forwarded-For), not the proxy every request comes from; without it, the proxy's address.
 */
const open: TestApp[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

const PROXY = '10.9.0.1';

async function attempts(t: TestApp): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < 4; i += 1) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      // Four different clients, four different usernames, all through the one proxy.
      payload: { username: `nobody${i}${randomUUID().slice(0, 6)}`, password: 'guess guess' },
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
    });
    codes.push(res.statusCode);
  }
  return codes;
}

describe('TRUST_PROXY', () => {
  it('reads values as Fastify takes them, and names the key on a bad one', () => {
    expect(envWith({}).TRUST_PROXY).toBeUndefined();
    expect(envWith({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(envWith({ TRUST_PROXY: '10.9.0.1, 10.8.0.0/16' }).TRUST_PROXY).toEqual(['10.9.0.1', '10.8.0.0/16']);
    expect(() => loadEnv({ TRUST_PROXY: 'yes please' })).toThrow(EnvError);
    expect(() => loadEnv({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY: must be a hop count/);
  });

  it('limits sign-in per client behind a trusted proxy, per proxy without it', async () => {
    const trusted = await createTestApp({ TRUST_PROXY: PROXY }, { credentialLimit: 2 });
    open.push(trusted);
    expect(await attempts(trusted)).toEqual([401, 401, 401, 401]);

    const oneHop = await createTestApp({ TRUST_PROXY: '1' }, { credentialLimit: 2 });
    open.push(oneHop);
    expect(await attempts(oneHop)).toEqual([401, 401, 401, 401]);

    const direct = await createTestApp({}, { credentialLimit: 2 });
    open.push(direct);
    expect(await attempts(direct)).toEqual([401, 401, 429, 429]);
  });
});
