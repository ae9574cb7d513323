import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
let web: string;
const bigChunk = `export const rows = [${Array.from({ length: 400 }, (_, i) => `'row ${i}'`).join(', ')}];\n`;
const indexHtml = '<!doctype html><div id="root"></div>';
beforeAll(async () => {
  t = await createTestApp();
  await t.close();
  web = join(t.dataDir, 'web');
  mkdirSync(join(web, 'static/js'), { recursive: true });
  writeFileSync(join(web, 'index.html'), indexHtml);
  writeFileSync(join(web, 'index.html.br'), brotliCompressSync(indexHtml));
  writeFileSync(join(web, 'index.html.gz'), gzipSync(indexHtml));
  writeFileSync(join(web, 'static/js/index-abc.js'), 'console.log(1)');
  // A built file with its precompressed copies, as the web build writes them (apps/web/vite.config.ts).
  writeFileSync(join(web, 'static/js/big-xyz.js'), bigChunk);
  writeFileSync(join(web, 'static/js/big-xyz.js.br'), brotliCompressSync(bigChunk));
  writeFileSync(join(web, 'static/js/big-xyz.js.gz'), gzipSync(bigChunk));
  writeFileSync(join(web, 'static/js/brotli-only-q.js'), bigChunk);
  writeFileSync(join(web, 'static/js/brotli-only-q.js.br'), brotliCompressSync(bigChunk));
  t = await createTestApp({ WEB_DIST: web });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

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

  it('sends the brotli copy to a browser that accepts it, gzip to one that only takes gzip, the file to others', async () => {
    const br = await get('/static/js/big-xyz.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bigChunk);
    expect(br.rawPayload.length).toBeLessThan(bigChunk.length / 3);

    const gz = await get('/static/js/big-xyz.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(bigChunk);

    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const plain = await get('/static/js/big-xyz.js', headers);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body).toBe(bigChunk);
    }
    // Only a brotli copy: a gzip-only client gets the file itself.
    const fallback = await get('/static/js/brotli-only-q.js', { 'accept-encoding': 'gzip' });
    expect(fallback.headers['content-encoding']).toBeUndefined();
    expect(fallback.body).toBe(bigChunk);
  });

  it('sends index.html compressed too, for the root and for every client route, never cached', async () => {
    for (const url of ['/', '/login', '/overview?x=1']) {
      const br = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers['content-type'], url).toMatch(/text\/html/);
      expect(br.headers['cache-control'], url).toBe('no-cache');
      expect(br.headers.vary, url).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(indexHtml);
      const gz = await get(url, { 'accept-encoding': 'gzip' });
      expect(gunzipSync(gz.rawPayload).toString(), url).toBe(indexHtml);
    }
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
