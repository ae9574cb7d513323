import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/*
 * Images for the attachments' tests and bench: made with sharp, or written byte by byte where sharp would refuse to
 * make them (a PNG claiming more pixels than it holds).
 */

/** A PNG of one colour. */
export const plainPng = (width = 64, height = 48): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png()
    .toBuffer();

/** Random pixels (compress badly): an image of about `width`×`height`×3 bytes whatever the format. */
function noisePixels(width: number, height: number, seed = 1): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < raw.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    raw[i] = x & 0xff;
  }
  return raw;
}

export const noisePng = (width: number, height: number, seed?: number): Promise<Buffer> =>
  sharp(noisePixels(width, height, seed), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();

/**
 * A photo-like JPEG with camera EXIF: smooth gradients with grain of `grain` amplitude (more grain, more bytes; the
 * bench finds the grain that makes a phone photo's 5 MB).
 */
export function photoJpeg(width: number, height: number, grain: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let x = 12345;
  for (let y = 0, i = 0; y < height; y++)
    for (let c = 0; c < width; c++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      const n = ((x & 0xff) - 128) * grain;
      raw[i++] = Math.max(0, Math.min(255, (c * 255) / width + n));
      raw[i++] = Math.max(0, Math.min(255, (y * 255) / height + n));
      raw[i++] = Math.max(0, Math.min(255, 128 + n));
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'PipCam', Model: 'Bench' } })
    .toBuffer();
}

/** A JPEG with camera and GPS EXIF, as a phone writes it, turned by its EXIF orientation (6: 90° clockwise). */
export const jpegWithGps = (): Promise<Buffer> =>
  sharp({ create: { width: 80, height: 40, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PipCam', Model: 'Spy 3000' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();

/** Whether EXIF bytes hold a GPS block (the GPS IFD pointer, tag 0x8825, in either byte order). */
export const exifHasGps = (exif: Buffer | undefined): boolean =>
  !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid PNG header claiming `width`×`height` RGB pixels (50,000×50,000 by default, 7.5 GB
 * decoded) with a tiny compressed body, valid CRCs throughout.
 */
export function bombPng(width = 50_000, height = 50_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    // Rows of zeros compress to almost nothing: a few rows' worth here, the rest "missing".
    chunk('IDAT', deflateSync(Buffer.alloc((width * 3 + 1) * 4))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ELF executable's first bytes, as a renamed program starts. */
export const elfBytes = (): Buffer =>
  Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120, 0x41)]);

/** A multipart/form-data body with the text fields and one file part (its declared name and type as given). */
export async function imageForm(
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; name?: string; type?: string },
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (file)
    data.append(
      'file',
      new Blob([Buffer.from(file.bytes)], { type: file.type ?? 'image/png' }),
      file.name ?? 'screenshot.png',
    );
  const encoded = new Response(data);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}
