import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import { ATTACHMENT_LIMITS, type AttachmentItem, type TradeItem } from '@pipsense/contract';
import { listVersionReader, type DataVersionsTables } from '../../db/data-versions';
import { slice } from '../../db/slice';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { bombPng, elfBytes, exifHasGps, imageForm, jpegWithGps, noisePng, plainPng } from '../../test/images';

/*
 * The attachment routes on the suite's database (SQLite, or PostgreSQL with PIPSENSE_TEST_PG_URL): uploads checked by
 * their bytes, re-encoded without metadata, the limits (size, pixels, per item, quota under two uploads at once),
 * every route, other users' attempts, and the trade list's version moved by an image on a trade.
 */
const NOW = Date.UTC(2025, 9, 3, 14, 30);
/** A 1 MB quota: two noise images of about 600 KB each cannot both fit. */
const QUOTA_MB = 1;
let s: OandaSim;
let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;

beforeAll(async () => {
  s = await startOandaSim({ accounts: 1, tradesPerAccount: 5, now: () => NOW });
  testDb = await createTestDb();
  t = await createTestApp(
    { OANDA_PRACTICE_URL: s.url, OANDA_LIVE_URL: 'http://127.0.0.1:9', ATTACHMENTS_QUOTA_MB: String(QUOTA_MB) },
    { db: testDb.db },
  );
});
afterAll(async () => {
  await t.close();
  await testDb.close();
  await s.close();
});

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
const post = (token: string, url: string, payload?: object) =>
  t.call(token, { method: 'POST', url, ...(payload === undefined ? {} : { payload }) });

async function upload(
  token: string,
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; name?: string; type?: string },
) {
  const form = await imageForm(fields, file);
  return t.call(token, { method: 'POST', url: '/api/v1/attachment/upload', ...form });
}
const day = { target: 'day', date: '2025-10-01' };
const listUrl = (fields: Record<string, string>) =>
  `/api/v1/attachment/get_attachments?${new URLSearchParams(fields).toString()}`;
async function listOf(token: string, fields: Record<string, string>): Promise<AttachmentItem[]> {
  const res = await get(token, listUrl(fields));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: AttachmentItem[] }>().data;
}
const plainUser = async () => (await t.user()).token;

describe('upload and read', () => {
  it('stores a PNG on a day with its caption, lists it, serves it and its WebP thumbnail', async () => {
    const token = await plainUser();
    const png = await plainPng(640, 480);
    const res = await upload(token, { ...day, caption: '  London open  ' }, { bytes: png });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json<{ data: AttachmentItem }>().data;
    expect(item).toMatchObject({
      target: 'day',
      contentType: 'image/png',
      width: 640,
      height: 480,
      caption: 'London open',
      url: `/api/v1/attachment/get_attachment/${item.id}`,
      thumbnailUrl: `/api/v1/attachment/get_thumbnail/${item.id}`,
    });
    expect(await listOf(token, day)).toEqual([item]);
    expect(await listOf(token, { target: 'day', date: '2025-10-02' })).toEqual([]);

    const image = await get(token, item.url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(image.rawPayload.length).toBe(item.bytes);
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'png', width: 640, height: 480 });

    const thumb = await get(token, item.thumbnailUrl);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const thumbMeta = await sharp(thumb.rawPayload).metadata();
    expect(thumbMeta).toMatchObject({ format: 'webp', width: 320, height: 240 });

    const usage = await get(token, '/api/v1/attachment/get_usage');
    expect(usage.json()).toMatchObject({
      success: true,
      data: { bytes: item.bytes + thumb.rawPayload.length, quota: QUOTA_MB * 1024 * 1024, count: 1 },
    });
  });

  it('takes a JPEG with camera and GPS EXIF and gives it back upright without any metadata', async () => {
    const token = await plainUser();
    const jpeg = await jpegWithGps();
    const before = await sharp(jpeg).metadata();
    expect(before.exif?.toString('latin1')).toContain('PipCam');
    expect(exifHasGps(before.exif)).toBe(true);
    expect(before.orientation).toBe(6);
    const res = await upload(token, day, { bytes: jpeg, name: 'IMG_0001.JPG', type: 'image/jpeg' });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json<{ data: AttachmentItem }>().data;
    // Orientation 6 turned into pixels: 80×40 stored as 40×80.
    expect(item).toMatchObject({ contentType: 'image/jpeg', width: 40, height: 80 });
    const stored = (await get(token, item.url)).rawPayload;
    const after = await sharp(stored).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(stored.includes(Buffer.from('PipCam'))).toBe(false);
    expect(exifHasGps(after.exif)).toBe(false);
  });

  it('stores a WebP as a WebP', async () => {
    const token = await plainUser();
    const webp = await sharp({ create: { width: 30, height: 20, channels: 4, background: '#00ff0080' } })
      .webp()
      .toBuffer();
    const res = await upload(token, day, { bytes: webp, name: 'x.png', type: 'image/png' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: AttachmentItem }>().data).toMatchObject({ contentType: 'image/webp', width: 30 });
  });

  it('puts images on a trade named as the trade list names it, and moves the list version', async () => {
    const token = (await t.oandaUser({ oanda: { accessToken: s.token } })).token;
    const trades = (await get(token, '/api/v1/trade/get_trade_history?page=1&limit=10')).json<{ data: TradeItem[] }>()
      .data;
    const trade = trades[0]!;
    const fields = { target: 'trade', accountId: trade.accountId, tradeId: trade.tradeId };
    const versionBefore = await listVersion(token);
    const res = await upload(token, fields, { bytes: await plainPng() });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json<{ data: AttachmentItem }>().data;
    expect(item.target).toBe('trade');
    const versionAfterUpload = await listVersion(token);
    expect(versionAfterUpload).not.toBe(versionBefore);
    expect(await listOf(token, fields)).toEqual([item]);
    expect((await post(token, `/api/v1/attachment/delete_attachment/${item.id}`)).statusCode).toBe(200);
    expect(await listVersion(token)).not.toBe(versionAfterUpload);
    expect(await listOf(token, fields)).toEqual([]);

    const missing = await upload(token, { ...fields, tradeId: '999999999' }, { bytes: await plainPng() });
    expect(missing.statusCode).toBe(404);
    expect((await get(token, listUrl({ ...fields, tradeId: '999999999' }))).statusCode).toBe(404);
  });
});

/** The trade list's page-cache key, as the server reads it (the user named by the token's subject). */
async function listVersion(token: string): Promise<string> {
  const { sub } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  return listVersionReader(slice<DataVersionsTables>(testDb.db.kysely))(sub);
}

describe('caption, delete, usage', () => {
  it('edits the caption, deletes the image (its bytes gone), and counts usage', async () => {
    const token = await plainUser();
    const item = (await upload(token, day, { bytes: await plainPng() })).json<{ data: AttachmentItem }>().data;
    const edited = await post(token, `/api/v1/attachment/edit_attachment/${item.id}`, { caption: 'Entry here' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<{ data: AttachmentItem }>().data).toEqual({ ...item, caption: 'Entry here' });
    const tooLong = await post(token, `/api/v1/attachment/edit_attachment/${item.id}`, {
      caption: 'x'.repeat(ATTACHMENT_LIMITS.caption + 1),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<{ message: string }>().message).toContain('caption');

    const deleted = await post(token, `/api/v1/attachment/delete_attachment/${item.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json<{ data: AttachmentItem }>().data.caption).toBe('Entry here');
    for (const url of [item.url, item.thumbnailUrl]) expect((await get(token, url)).statusCode).toBe(404);
    expect((await post(token, `/api/v1/attachment/delete_attachment/${item.id}`)).statusCode).toBe(404);
    expect((await get(token, '/api/v1/attachment/get_usage')).json()).toMatchObject({ data: { bytes: 0, count: 0 } });
  });
});

describe('refused uploads store nothing', () => {
  async function expectRefused(token: string, res: Awaited<ReturnType<typeof upload>>, status: number, text: string) {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ success: boolean; message: string }>()).toMatchObject({ success: false });
    expect(res.json<{ message: string }>().message).toContain(text);
    expect((await get(token, '/api/v1/attachment/get_usage')).json()).toMatchObject({ data: { count: 0 } });
  }

  it('a renamed executable, text, a truncated image: 400 by their bytes', async () => {
    const token = await plainUser();
    const notImage = 'The file is not a PNG, JPEG or WebP image';
    await expectRefused(token, await upload(token, day, { bytes: elfBytes(), name: 'photo.png' }), 400, notImage);
    await expectRefused(
      token,
      await upload(token, day, { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), name: 'a.png' }),
      400,
      notImage,
    );
    const png = await plainPng(200, 200);
    await expectRefused(token, await upload(token, day, { bytes: png.subarray(0, 60) }), 400, notImage);
    // A GIF declared as a PNG.
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
      .gif()
      .toBuffer();
    await expectRefused(token, await upload(token, day, { bytes: gif }), 400, notImage);
  });

  it('bad or missing fields: 400 naming the field', async () => {
    const token = await plainUser();
    const png = await plainPng();
    await expectRefused(token, await upload(token, { target: 'album' }, { bytes: png }), 400, 'target');
    await expectRefused(token, await upload(token, { target: 'day' }, { bytes: png }), 400, 'date');
    await expectRefused(token, await upload(token, { target: 'day', date: '2025-02-30' }, { bytes: png }), 400, 'date');
    await expectRefused(
      token,
      await upload(token, { target: 'trade', accountId: '1' }, { bytes: png }),
      400,
      'tradeId',
    );
    await expectRefused(token, await upload(token, { target: 'playbook' }, { bytes: png }), 400, 'id');
    await expectRefused(
      token,
      await upload(token, { ...day, caption: 'x'.repeat(ATTACHMENT_LIMITS.caption + 1) }, { bytes: png }),
      400,
      'caption',
    );
    await expectRefused(token, await upload(token, { ...day, caption: 'a\u0000b' }, { bytes: png }), 400, 'caption');
    await expectRefused(token, await upload(token, day), 400, 'No image');
    const json = await post(token, '/api/v1/attachment/upload', day);
    expect(json.statusCode).toBe(400);
    const badQuery = await get(token, listUrl({ target: 'day' }));
    expect(badQuery.statusCode).toBe(400);
  });

  it('playbooks and missed trades: 404 while no playbooks module answers for them', async () => {
    const token = await plainUser();
    const png = await plainPng();
    for (const target of ['playbook', 'missed'])
      await expectRefused(token, await upload(token, { target, id: 'p1' }, { bytes: png }), 404, 'of yours');
  });

  it('10 MB + 1 byte: 413', async () => {
    const token = await plainUser();
    const png = await plainPng();
    const big = Buffer.concat([png, Buffer.alloc(ATTACHMENT_LIMITS.fileBytes + 1 - png.length)]);
    expect(big.length).toBe(ATTACHMENT_LIMITS.fileBytes + 1);
    await expectRefused(token, await upload(token, day, { bytes: big }), 413, '10 MB');
    // Far past the limit: refused by its length before the form is read.
    const huge = Buffer.concat([png, Buffer.alloc(ATTACHMENT_LIMITS.fileBytes * 2)]);
    await expectRefused(token, await upload(token, day, { bytes: huge }), 413, '10 MB');
  });

  it('a PNG claiming 50,000×50,000 pixels: 400 without decoding it (memory stays low)', async () => {
    const token = await plainUser();
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(10_000);
    const start = process.memoryUsage().rss;
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    const res = await upload(token, day, { bytes: bomb });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    await expectRefused(token, res, 400, '50000×50000');
    expect(peak - start).toBeLessThan(256 * 1024 * 1024);
  });
});

describe('limits', () => {
  it('at most 20 images an item: the 21st is 409', async () => {
    const token = await plainUser();
    const png = await plainPng(8, 8);
    for (let i = 0; i < ATTACHMENT_LIMITS.perItem; i++)
      expect((await upload(token, day, { bytes: png })).statusCode).toBe(200);
    const full = await upload(token, day, { bytes: png });
    expect(full.statusCode).toBe(409);
    expect(full.json<{ message: string }>().message).toContain(`${ATTACHMENT_LIMITS.perItem} images`);
    expect((await upload(token, { target: 'day', date: '2025-10-02' }, { bytes: png })).statusCode).toBe(200);
    expect(await listOf(token, day)).toHaveLength(ATTACHMENT_LIMITS.perItem);
  });

  it('the quota holds under two uploads at once: exactly one of two that together pass it is stored', async () => {
    const token = await plainUser();
    const [a, b] = await Promise.all([noisePng(430, 430, 1), noisePng(430, 430, 2)]);
    expect(a.length).toBeGreaterThan(QUOTA_MB * 1024 * 1024 * 0.5);
    const results = await Promise.all([
      upload(token, day, { bytes: a }),
      upload(token, { target: 'day', date: '2025-10-05' }, { bytes: b }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.statusCode === 409)!;
    expect(refused.json<{ message: string }>().message).toMatch(/^Your storage is full: /);
    const usage = (await get(token, '/api/v1/attachment/get_usage')).json<{ data: { bytes: number; count: number } }>()
      .data;
    expect(usage.count).toBe(1);
    expect(usage.bytes).toBeLessThanOrEqual(QUOTA_MB * 1024 * 1024);
  });
});

describe('users apart', () => {
  it("another user's image, list and edits: 404, and the owner's image is unchanged", async () => {
    const owner = await plainUser();
    const other = await plainUser();
    const item = (await upload(owner, day, { bytes: await plainPng() })).json<{ data: AttachmentItem }>().data;
    for (const url of [item.url, item.thumbnailUrl]) expect((await get(other, url)).statusCode).toBe(404);
    expect((await post(other, `/api/v1/attachment/edit_attachment/${item.id}`, { caption: 'mine' })).statusCode).toBe(
      404,
    );
    expect((await post(other, `/api/v1/attachment/delete_attachment/${item.id}`)).statusCode).toBe(404);
    expect(await listOf(other, day)).toEqual([]);
    expect(await listOf(owner, day)).toEqual([item]);
    expect((await get(other, '/api/v1/attachment/get_usage')).json()).toMatchObject({ data: { count: 0 } });
  });

  it('every route needs a session', async () => {
    for (const url of ['/api/v1/attachment/get_usage', listUrl(day), '/api/v1/attachment/get_attachment/x'])
      expect((await t.call(undefined, { method: 'GET', url })).statusCode).toBe(401);
  });
});
