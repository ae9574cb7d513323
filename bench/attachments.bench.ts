/*
 * An image upload through the real app (app.inject, SQLite): a 5 MB, 12-megapixel JPEG (a phone photo's size) sent
 * as multipart, checked, re-encoded without metadata, thumbnailed and stored in the database. Time of the upload
 * and the process's peak resident memory above its level before (kernel peak reset before each upload), beside the
 * floor in the same run: the module's image work alone on the same bytes (processImage: header, re-encode,
 * thumbnail), without HTTP, the form or the database.
 */
import { ATTACHMENT_LIMITS } from '@pipsense/contract';
import { processImage } from '../apps/server/src/modules/attachments/image';
import { imageForm, photoJpeg } from '../apps/server/src/test/images';
import { createBenchApp } from './support/bench-app';
import { peakRss, resetPeak } from './support/peak-rss';
import { goal, heading, mb, median, ms, runBench, spread } from './support/stats';

const RUNS = 7;
const GOAL_MS = 1000;
const GOAL_BYTES = 150 * 1024 * 1024;
const WIDTH = 4000;
const HEIGHT = 3000;

/** The grain that makes the JPEG about 5 MB. */
async function fiveMegabytes(): Promise<Buffer> {
  const target = 5 * 1024 * 1024;
  let low = 0;
  let high = 1;
  let best = await photoJpeg(WIDTH, HEIGHT, 0.5);
  for (let i = 0; i < 8; i++) {
    const grain = (low + high) / 2;
    best = await photoJpeg(WIDTH, HEIGHT, grain);
    if (Math.abs(best.length - target) < target * 0.03) break;
    if (best.length < target) low = grain;
    else high = grain;
  }
  return best;
}

runBench(async () => {
  const bytes = await fiveMegabytes();
  if (bytes.length > ATTACHMENT_LIMITS.fileBytes) throw new Error('the bench image is over the upload limit');
  const t = await createBenchApp({ ATTACHMENTS_QUOTA_MB: '100000' });
  try {
    const { token } = await t.user('bench');
    const form = await imageForm({ target: 'day', date: '2025-10-01' }, { bytes, name: 'IMG_0001.JPG' });
    heading(`${WIDTH}×${HEIGHT} JPEG of ${mb(bytes.length)} (${(bytes.length / 1024 / 1024).toFixed(2)} MiB)`);

    const upload = async () => {
      const res = await t.call(token, { method: 'POST', url: '/api/v1/attachment/upload', ...form });
      if (res.statusCode !== 200) throw new Error(`upload answered ${res.statusCode}: ${res.body}`);
      return res.json<{ data: { bytes: number; width: number } }>().data;
    };
    // Warm-up: sharp's first call loads libvips.
    await upload();
    await processImage(bytes);

    const uploads: number[] = [];
    const floors: number[] = [];
    const extra: number[] = [];
    let peakReset = true;
    let stored = 0;
    for (let i = 0; i < RUNS; i++) {
      global.gc?.();
      const before = process.memoryUsage().rss;
      peakReset = resetPeak() && peakReset;
      let started = performance.now();
      stored = (await upload()).bytes;
      uploads.push(performance.now() - started);
      extra.push((peakReset ? peakRss() : process.memoryUsage().rss) - before);
      started = performance.now();
      await processImage(bytes);
      floors.push(performance.now() - started);
    }
    console.log(`upload: ${spread(uploads, 0)}; stored JPEG ${mb(stored)} (re-encoded at quality 85, no metadata)`);
    console.log(`floor (the module's image work alone: header, re-encode, thumbnail): ${spread(floors, 0)}`);
    console.log(`upload / floor: ${(median(uploads) / median(floors)).toFixed(2)}`);
    console.log(
      `resident memory above the level before each upload: ${spread(
        extra.map((b) => b / 1024 / 1024),
        0,
      ).replaceAll(' ms', ' MB')}${peakReset ? '' : ' (peak not resettable: rss after the upload)'}`,
    );
    goal('5 MB JPEG upload (median)', ms(median(uploads), 0), median(uploads) <= GOAL_MS, `≤ ${GOAL_MS} ms`);
    goal(
      '5 MB JPEG upload: extra resident memory (max)',
      mb(Math.max(...extra)),
      Math.max(...extra) <= GOAL_BYTES,
      `≤ ${mb(GOAL_BYTES)}`,
    );
  } finally {
    await t.close();
  }
});
