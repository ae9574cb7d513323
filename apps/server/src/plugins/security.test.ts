import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { HSTS } from './security';

/*
 * SECURITY.md, Attacks through the browser: HSTS only when TLS is in front (TRUST_PROXY set); source maps never served.
 */
const open: TestApp[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});
async function app(overrides: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const t = await createTestApp(overrides);
  open.push(t);
  return t;
}

describe('Strict-Transport-Security', () => {
  it('is not sent when the server speaks plain HTTP (no TRUST_PROXY)', async () => {
    const t = await app();
    for (const url of ['/healthz', '/api/v1/auth/me', '/api/v1/nowhere']) {
      const res = await t.app.inject({ url });
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('is sent on answers, errors and 404s when TRUST_PROXY says TLS is in front', async () => {
    for (const trust of ['1', '10.0.0.0/8']) {
      const t = await app({ TRUST_PROXY: trust });
      for (const url of ['/healthz', '/api/v1/auth/me', '/api/v1/nowhere']) {
        const res = await t.app.inject({ url });
        expect(res.headers['strict-transport-security'], `${trust} ${url}`).toBe(HSTS);
      }
    }
    expect(HSTS).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
  });
});

describe('source maps', () => {
  it('are not served even when a build left one beside its script', async () => {
    const web = mkdtempSync(join(tmpdir(), 'pipsense-web-'));
    onTestFinished(() => rmSync(web, { recursive: true, force: true }));
    mkdirSync(join(web, 'static', 'js'), { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>PipSense</title>');
    writeFileSync(join(web, 'static', 'js', 'index-abc.js'), 'console.log(1);');
    writeFileSync(join(web, 'static', 'js', 'index-abc.js.map'), '{"version":3,"sources":["secret.ts"]}');
    const served = await app({ WEB_DIST: web });
    expect((await served.app.inject({ url: '/static/js/index-abc.js' })).statusCode).toBe(200);
    const map = await served.app.inject({ url: '/static/js/index-abc.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.ts');
  });
});
