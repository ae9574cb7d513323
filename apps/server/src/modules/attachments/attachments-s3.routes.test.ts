import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { AttachmentItem } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import { imageForm, plainPng } from '../../test/images';
import { startTestBucket, userIdOfToken, type TestBucket } from '../../test/s3-bucket';
import type { DeletionWorker } from './deletion-worker';

/*
 * Images kept in an S3 bucket (ATTACHMENTS_S3_URL): the real AWS SDK against s3rver, an S3-protocol server run here
 * on loopback with a temporary directory. Upload, read, delete through the outbox, and an account's deletion, each
 * checked by listing the bucket.
 */
let bucket: TestBucket;
let t: TestApp;
let worker: DeletionWorker | undefined;

beforeAll(async () => {
  bucket = await startTestBucket('pipsense-images');
  t = await createTestApp({ ATTACHMENTS_S3_URL: bucket.url }, { attachmentDeletions: (w) => (worker = w) });
});
afterAll(async () => {
  await t?.close();
  await bucket?.close();
});

async function upload(token: string, date: string): Promise<AttachmentItem> {
  const form = await imageForm({ target: 'day', date }, { bytes: await plainPng(400, 300) });
  const res = await t.call(token, { method: 'POST', url: '/api/v1/attachment/upload', ...form });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: AttachmentItem }>().data;
}

describe('images in an S3 bucket', () => {
  it('stores the image and thumbnail as objects, serves them, deletes them through the outbox', async () => {
    const { token } = await t.user();
    const item = await upload(token, '2025-10-01');
    const key = `pipsense/attachments/${userIdOfToken(token)}/${item.id}`;
    expect(await bucket.keys()).toEqual(expect.arrayContaining([key, `${key}.thumbnail.webp`]));

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
    expect(await bucket.keys()).toContain(key);
    expect(worker).toBeDefined();
    expect(await worker!.runOnce()).toBeGreaterThanOrEqual(1);
    expect((await bucket.keys()).filter((k) => k.startsWith(key))).toEqual([]);
  });

  it("an account's deletion queues its objects in the same transaction; the worker removes them", async () => {
    const u = await t.user();
    const items = [await upload(u.token, '2025-10-01'), await upload(u.token, '2025-10-02')];
    const prefix = `pipsense/attachments/${userIdOfToken(u.token)}/`;
    expect((await bucket.keys()).filter((k) => k.startsWith(prefix))).toHaveLength(4);
    const res = await t.call(u.token, {
      method: 'POST',
      url: '/api/v1/account/delete_account',
      payload: { password: u.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    await worker!.runOnce();
    expect((await bucket.keys()).filter((k) => k.startsWith(prefix))).toEqual([]);
    expect(items).toHaveLength(2);
  });
});
