import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

/*
 * A 200 MB upload over a real connection (not app.inject): the client gets its 413 with the clear message, whether
 * it says the length up front or streams the file in chunks, and the server is still there for the next request.
 */
let t: TestApp;
let base: string;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = (await t.user()).token;
});
afterAll(async () => {
  await t.close();
});

const MB = 1024 * 1024;
const boundary = '----pipsense-test-boundary';
const head = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.htm"\r\nContent-Type: text/html\r\n\r\n`,
);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);

function* chunks(total: number) {
  yield head;
  const block = Buffer.alloc(MB, 'a');
  for (let sent = 0; sent < total; sent += MB) yield block;
  yield tail;
}

async function send(withLength: boolean) {
  const size = 200 * MB;
  const res = await fetch(`${base}/api/v1/import/upload`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(withLength ? { 'content-length': String(head.length + size + tail.length) } : {}),
    },
    body: Readable.toWeb(Readable.from(chunks(size))) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as { code: string; message: string } };
}

describe('uploads over the limit', () => {
  it('answers 413 with its message to a client that sends the length', async () => {
    const res = await send(true);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('FILE_TOO_LARGE');
    expect(res.body.message).toContain('the limit is 50 MB');
  });

  it('answers 413 to a client that streams the file without a length', async () => {
    const res = await send(false);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('FILE_TOO_LARGE');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
  });
});
