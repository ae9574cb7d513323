/*
 * An image upload through the real app (app.inject, SQLite): a 5 MB, 12-megapixel JPEG (a phone photo's size) sent
 * as multipart, checked, re-encoded without metadata, thumbnailed and stored in the database. Time of the upload
 * and the process's peak resident memory above its level before (kernel peak reset before each upload), beside the
 * floor in the same run: sharp alone re-encoding and thumbnailing the same bytes.
 */
import sharp from 'sharp';
import { ATTACHMENT_LIMITS } from '@pipsense/contract';
import { imageForm } from '../apps/server/src/test/images';
import { createBenchApp } from './support/bench-app';
import { peakRss, resetPeak } from './support/peak-rss';
import { goal, heading, mb, median, ms, runBench, spread } from './support/stats';

const RUNS = 7;
const GOAL_MS = 1000;
const GOAL_BYTES = 150 * 1024 * 1024;
const WIDTH = 4000;
const HEIGHT = 3000;

/** A photo-like JPEG: smooth gradients with grain of `grain` amplitude (more grain, more bytes). */
async function photo(grain: number): Promise<Buffer> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  let x = 12345;
  for (let y = 0, i = 0; y < HEIGHT; y++)
    for (let c = 0; c < WIDTH; c++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      const n = ((x & 0xff) - 128) * grain;
      raw[i++] = Math.max(0, Math.min(255, (c * 255) / WIDTH + n));
      raw[i++] = Math.max(0, Math.min(255, (y * 255) / HEIGHT + n));
      raw[i++] = Math.max(0, Math.min(255, 128 + n));
    }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'PipCam', Model: 'Bench' } })
    .toBuffer();
}

/** The grain that makes the JPEG about 5 MB. */
async function fiveMegabytes(): Promise<Buffer> {
  const target = 5 * 1024 * 1024;
  let low = 0;
  let high = 1;
  let best = await photo(0.5);
  for (let i = 0; i < 8; i++) {
    const grain = (low + high) / 2;
    best = await photo(grain);
    if (Math.abs(best.length - target) < target * 0.03) break;
    if (best.length < target) low = grain;
    else high = grain;
  }
  return best;
}

/** The floor: sharp's own work on the same bytes, as the upload does it (header, re-encode, thumbnail). */
async function floor(bytes: Buffer): Promise<void> {
  await sharp(bytes).metadata();
  await Promise.all([
    sharp(bytes).rotate().jpeg({ quality: 85 }).toBuffer(),
    sharp(bytes).rotate().resize({ width: 320, height: 320, fit: 'inside' }).webp({ quality: 75 }).toBuffer(),
  ]);
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
    await floor(bytes);

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
      await floor(bytes);
      floors.push(performance.now() - started);
    }
    console.log(`upload: ${spread(uploads, 0)}; stored JPEG ${mb(stored)} (re-encoded at quality 85, no metadata)`);
    console.log(`floor (sharp alone, same work): ${spread(floors, 0)}`);
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
