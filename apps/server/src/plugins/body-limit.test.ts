import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

/*
 * SECURITY.md, Oversized bodies: a 10 MB JSON body sent over a real socket without `Expect: 100-continue` (as browsers
 * send uploads) gets its 413 with the envelope's clear message every time, and the client can send its whole body
 * without the connection being reset under it (no EPIPE, no ECONNRESET).
 */
let t: TestApp;
let port: number;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  token = (await t.user()).token;
});
afterAll(async () => {
  await t.close();
});

const BODY = Buffer.concat([Buffer.from('{"username":"'), Buffer.alloc(10 * 1024 * 1024, 'a'), Buffer.from('"}')]);

interface RawAnswer {
  status: number;
  body: string;
  /** The socket error the client saw while sending or reading (EPIPE, ECONNRESET), if any. */
  error?: string;
}

/** One request over its own socket: the whole body written in 64 KB pieces, then the answer read to its end. */
function rawPost(path: string, bearer?: string): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, body, ...(error ? { error } : {}) });
    });
    socket.on('connect', async () => {
      const headers = [
        `POST ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        `Content-Length: ${BODY.length}`,
        'Connection: close',
        ...(bearer ? [`Authorization: Bearer ${bearer}`] : []),
      ];
      socket.write(`${headers.join('\r\n')}\r\n\r\n`);
      for (let at = 0; at < BODY.length && !socket.destroyed; at += 64 * 1024) {
        const piece = BODY.subarray(at, at + 64 * 1024);
        if (!socket.write(piece)) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
      if (!socket.destroyed) socket.end();
    });
  });
}

/** Every route that takes a body, from the app's own route table (a new route is covered without editing this). */
function bodyRoutes(): string[] {
  const table = t.app.printRoutes({ commonPrefix: false });
  const paths = new Set<string>();
  for (const line of table.split('\n')) {
    const match = /(\/\S*) \(([^)]+)\)/.exec(line);
    if (!match?.[1] || !match[2]) continue;
    if (!/\b(POST|PUT|PATCH|DELETE)\b/.test(match[2]) || !match[1].startsWith('/api/')) continue;
    paths.add(match[1].replace(/:[^/]+/g, 'abc123'));
  }
  return [...paths];
}

describe('oversized bodies over a real socket', () => {
  it('answers 10 MB posted to /api/v1/auth/login with 413 and its message, 20 times in a row, never a reset', async () => {
    for (let i = 0; i < 20; i += 1) {
      const res = await rawPost('/api/v1/auth/login');
      expect(res.error, `try ${i + 1}`).toBeUndefined();
      expect(res.status, `try ${i + 1}`).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({
        success: false,
        message: 'The request is too large (the limit is 1 MiB).',
      });
    }
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
  });

  it('answers 413 on every route that takes a body, signed in, and 401 signed out, never a reset', async () => {
    const routes = bodyRoutes();
    expect(routes.length).toBeGreaterThan(20);
    expect(routes).toContain('/api/v1/import/upload');
    for (const route of routes) {
      const signedIn = await rawPost(route, token);
      expect({ route, error: signedIn.error, status: signedIn.status }).toEqual({
        route,
        error: undefined,
        status: 413,
      });
      expect(JSON.parse(signedIn.body)).toMatchObject({
        success: false,
        message: expect.stringContaining('too large'),
      });
    }
    const signedOut = await rawPost('/api/v1/account/update_info');
    expect({ error: signedOut.error, status: signedOut.status }).toEqual({ error: undefined, status: 401 });
  });
});
