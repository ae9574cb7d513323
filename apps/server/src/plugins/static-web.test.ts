import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
let web: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.close();
  web = join(t.dataDir, 'web');
  mkdirSync(join(web, 'static/js'), { recursive: true });
  writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(web, 'static/js/index-abc.js'), 'console.log(1)');
  t = await createTestApp({ WEB_DIST: web });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('the web app', () => {
  it('answers client routes with index.html, never cached', async () => {
    for (const url of ['/', '/login', '/trades/all_trades', '/settings/ai_platforms?x=1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed chunks for good and files added after start', async () => {
    const chunk = await get('/static/js/index-abc.js');
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toContain('immutable');
    writeFileSync(join(web, 'static/js/later-def.js'), 'console.log(2)');
    expect((await get('/static/js/later-def.js')).statusCode).toBe(200);
  });

  it('answers missing files and unknown API paths with a 404 envelope', async () => {
    for (const url of ['/static/js/missing.js', '/api/v1/nope', '/api']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
    const post = await t.app.inject({ method: 'POST', url: '/overview' });
    expect(post.statusCode).toBe(404);
  });
});
