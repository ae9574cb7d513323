import sharp, { type Sharp } from 'sharp';
import type { ATTACHMENT_TYPES } from '@pipsense/contract';
import { badRequest } from '../../lib/errors';

/*
 * An uploaded image checked and made safe to keep (docs/review.md, Attachments): its type read from its first bytes
 * (the name and the declared type are the client's word), its size in pixels read from its header before anything is
 * decoded (a small file can claim a huge image), then decoded and encoded again, which drops its metadata (camera,
 * GPS position) and anything hidden after the image data.
 */

type ImageType = (typeof ATTACHMENT_TYPES)[number];

/**
 * The most pixels an image may have: 50 megapixels (a 8660×5773 photo; screenshots are far below). Checked on the
 * header's claim before decoding, and by sharp itself while decoding: one decode of the largest stays around
 * 200 MB.
 */
const MAX_INPUT_PIXELS = 50_000_000;
/** Thumbnails are at most this wide and high (a list's tile, twice over for dense screens). */
const THUMBNAIL_SIZE = 320;
/** Images processed at once by this instance: each decode holds its pixels in memory. */
const AT_ONCE = 2;

const NOT_AN_IMAGE = 'The file is not a PNG, JPEG or WebP image. Attach a screenshot or photo in one of these formats.';

// libvips' operation cache keeps decoded images for reuse: nothing here is processed twice, so it only holds memory.
sharp.cache(false);
// Threads per image: two images at once on two threads each keep a small server responsive.
sharp.concurrency(2);

/** The image type the bytes start with (PNG, JPEG or WebP signature), or undefined. */
function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  const starts = (offset: number, signature: readonly number[]) =>
    bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
  if (starts(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // RIFF....WEBP
  if (starts(0, [0x52, 0x49, 0x46, 0x46]) && starts(8, [0x57, 0x45, 0x42, 0x50])) return 'image/webp';
  return undefined;
}

const SHARP_FORMAT: Record<ImageType, 'png' | 'jpeg' | 'webp'> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
};

export interface ProcessedImage {
  contentType: ImageType;
  data: Buffer;
  width: number;
  height: number;
  thumbnail: Buffer;
}

let running = 0;
const waiting: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

const input = (bytes: Uint8Array) =>
  sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false, sequentialRead: true });

/**
 * Checks and re-encodes an uploaded image: 400 when its bytes are not a PNG, JPEG or WebP, when it claims more than
 * MAX_INPUT_PIXELS, or when it cannot be decoded. The result is turned upright (EXIF orientation), in its own
 * format, without metadata, with a WebP thumbnail. sharp works on libuv's threads, off the event loop.
 */
export async function processImage(bytes: Uint8Array): Promise<ProcessedImage> {
  const type = sniffImageType(bytes);
  if (!type) throw badRequest(NOT_AN_IMAGE, 'NOT_AN_IMAGE');
  return inTurn(async () => {
    let meta: Awaited<ReturnType<Sharp['metadata']>>;
    try {
      // The header only: nothing is decoded yet.
      meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    } catch {
      throw badRequest(NOT_AN_IMAGE, 'NOT_AN_IMAGE');
    }
    if (meta.format !== SHARP_FORMAT[type] || !meta.width || !meta.height)
      throw badRequest(NOT_AN_IMAGE, 'NOT_AN_IMAGE');
    const pageHeight = meta.pageHeight ?? meta.height;
    if (meta.width * pageHeight > MAX_INPUT_PIXELS)
      throw badRequest(
        `The image is ${meta.width}×${pageHeight} pixels; the limit is ${MAX_INPUT_PIXELS / 1_000_000} megapixels. Attach a smaller image.`,
        'IMAGE_TOO_LARGE',
      );
    try {
      const format = SHARP_FORMAT[type];
      const encoded = input(bytes).rotate();
      const out =
        format === 'jpeg'
          ? encoded.jpeg({ quality: 85, mozjpeg: false })
          : format === 'png'
            ? encoded.png({ compressionLevel: 6 })
            : encoded.webp({ quality: 85 });
      const [{ data, info }, thumbnail] = await Promise.all([
        out.toBuffer({ resolveWithObject: true }),
        input(bytes)
          .rotate()
          .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 75 })
          .toBuffer(),
      ]);
      return { contentType: type, data, width: info.width, height: info.height, thumbnail };
    } catch {
      throw badRequest(NOT_AN_IMAGE, 'NOT_AN_IMAGE');
    }
  });
}
