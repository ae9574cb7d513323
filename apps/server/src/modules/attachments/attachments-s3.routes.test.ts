import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import type { AttachmentItem } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import { imageForm, plainPng } from '../../test/images';
import type { DeletionWorker } from './deletion-worker';
import { parseS3Url } from './object-store';

/*
 * Images kept in an S3 bucket (ATTACHMENTS_S3_URL): the real AWS SDK against s3rver, an S3-protocol server run here
 * on loopback with a temporary directory. Upload, read, delete through the outbox, and an account's deletion, each
 * checked by listing the bucket.
 */
const BUCKET = 'pipsense-images';
let dir: string;
let server: S3rver;
let s3Url: string;
let bucket: S3Client;
let t: TestApp;
let worker: DeletionWorker | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pipsense-s3rver-'));
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  s3Url = `http://S3RVER:S3RVER@127.0.0.1:${port}/${BUCKET}/pipsense?region=us-east-1&forcePathStyle=true`;
  bucket = new S3Client(parseS3Url(s3Url).client);
  t = await createTestApp({ ATTACHMENTS_S3_URL: s3Url }, { attachmentDeletions: (w) => (worker = w) });
});
afterAll(async () => {
  await t?.close();
  bucket?.destroy();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function objectKeys(): Promise<string[]> {
  const res = await bucket.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}
async function upload(token: string, date: string): Promise<AttachmentItem> {
  const form = await imageForm({ target: 'day', date }, { bytes: await plainPng(400, 300) });
  const res = await t.call(token, { method: 'POST', url: '/api/v1/attachment/upload', ...form });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: AttachmentItem }>().data;
}
const userIdOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;

describe('images in an S3 bucket', () => {
  it('stores the image and thumbnail as objects, serves them, deletes them through the outbox', async () => {
    const { token } = await t.user();
    const item = await upload(token, '2025-10-01');
    const key = `pipsense/attachments/${userIdOf(token)}/${item.id}`;
    expect(await objectKeys()).toEqual(expect.arrayContaining([key, `${key}.thumbnail.webp`]));

    const image = await t.call(token, { method: 'GET', url: item.url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.length).toBe(item.bytes);
    const thumb = await t.call(token, { method: 'GET', url: item.thumbnailUrl });
    expect(thumb.statusCode).toBe(200);
    expect((await sharp(thumb.rawPayload).metadata()).format).toBe('webp');

    const deleted = await t.call(token, { method: 'POST', url: `/api/v1/attachment/delete_attachment/${item.id}` });
    expect(deleted.statusCode).toBe(200);
    expect((await t.call(token, { method: 'GET', url: item.url })).statusCode).toBe(404);
    // The row is gone at once; the objects go when the outbox's worker runs.
    expect(await objectKeys()).toContain(key);
    expect(worker).toBeDefined();
    expect(await worker!.runOnce()).toBeGreaterThanOrEqual(1);
    expect((await objectKeys()).filter((k) => k.startsWith(key))).toEqual([]);
  });

  it("an account's deletion queues its objects in the same transaction; the worker removes them", async () => {
    const u = await t.user();
    const items = [await upload(u.token, '2025-10-01'), await upload(u.token, '2025-10-02')];
    const prefix = `pipsense/attachments/${userIdOf(u.token)}/`;
    expect((await objectKeys()).filter((k) => k.startsWith(prefix))).toHaveLength(4);
    const res = await t.call(u.token, {
      method: 'POST',
      url: '/api/v1/account/delete_account',
      payload: { password: u.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    await worker!.runOnce();
    expect((await objectKeys()).filter((k) => k.startsWith(prefix))).toEqual([]);
    expect(items).toHaveLength(2);
  });
});
