import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttachmentItem } from '@pipsense/contract';
import { createTestApp, testDialect, type TestApp } from '../../test/harness';
import { imageForm, plainPng } from '../../test/images';
import { startTestBucket, userIdOfToken, type TestBucket } from '../../test/s3-bucket';
import { until } from '../../test/until';
import type { OrphanSweep } from './orphan-sweep';

/*
 * The bucket's orphan sweep (docs/decisions/025-attachment-storage.md, Update) on the app as wired: the real AWS SDK
 * against s3rver on loopback, the sweep's scheduled job in process on SQLite and on pg-boss on PostgreSQL. Objects
 * put without a row stand for an upload whose process died between the put and the commit.
 */
/** pg-boss tuned for a test: no cron (ticks by hand), quick polling. */
const PG_BOSS = { cron: false, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, retryDelay: 1 };
let bucket: TestBucket;
let t: TestApp;
let jobs: { queue: { tick(): Promise<number>; idle(): Promise<void> }; sweep: OrphanSweep } | undefined;
/** The app's clock runs this far ahead of the real one (the objects' times are s3rver's, the real clock's). */
let skewMs = 0;

beforeAll(async () => {
  bucket = await startTestBucket('pipsense-sweep');
  t = await createTestApp(
    { ATTACHMENTS_S3_URL: bucket.url },
    {
      now: () => new Date(Date.now() + skewMs),
      syncJobs: { tickMs: 0, pgBoss: PG_BOSS },
      attachmentSweep: { enabled: true, expose: (j) => (jobs = j) },
    },
  );
});
afterAll(async () => {
  await t?.close();
  await bucket?.close();
});

describe(`the orphan sweep on an S3 bucket (${testDialect})`, () => {
  it('its scheduled job deletes the objects no row names once an hour old; committed images and other keys stay', async () => {
    const { token } = await t.user();
    const form = await imageForm({ target: 'day', date: '2025-10-01' }, { bytes: await plainPng(400, 300) });
    const res = await t.call(token, { method: 'POST', url: '/api/v1/attachment/upload', ...form });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json<{ data: AttachmentItem }>().data;
    const prefix = `pipsense/attachments/${userIdOfToken(token)}/`;
    const kept = [`${prefix}${item.id}`, `${prefix}${item.id}.thumbnail.webp`];
    const orphans = [`${prefix}killed-upload`, `${prefix}killed-upload.thumbnail.webp`];
    for (const key of [...orphans, 'pipsense/exports/not-an-attachment', 'elsewhere/attachments/x/y'])
      await bucket.put(key);
    const before = await bucket.keys();

    // The sweeps the job ran, as they end (the job calls the sweep it was built with).
    const swept: number[] = [];
    const sweep = jobs!.sweep.sweep;
    jobs!.sweep.sweep = async () => {
      const n = await sweep();
      swept.push(n);
      return n;
    };

    // The first tick asks for a sweep: every object is seconds old, within the hour's grace.
    expect(await jobs!.queue.tick()).toBe(1);
    await until(() => swept.length === 1, 'the first sweep');
    expect(swept).toEqual([0]);
    expect(await bucket.keys()).toEqual(before);

    // Two hours on: the next tick's sweep deletes the orphans only.
    skewMs = 2 * 3_600_000;
    expect(await jobs!.queue.tick()).toBe(1);
    await until(() => swept.length === 2, 'the second sweep');
    expect(swept).toEqual([0, 1]);
    expect(await bucket.keys()).toEqual(
      [...kept, 'pipsense/exports/not-an-attachment', 'elsewhere/attachments/x/y'].sort(),
    );
    // Within the hour, no further sweep is asked for.
    expect(await jobs!.queue.tick()).toBe(0);
  });
});
