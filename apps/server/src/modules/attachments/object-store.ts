import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';

/*
 * The bucket that holds the images when ATTACHMENTS_S3_URL is set (docs/decisions/025-attachment-storage.md). One
 * attachment is two objects: `<key>` (the image) and `<key>.thumbnail.webp`.
 */

/** Where an attachment's bytes are kept in the bucket: its image and its thumbnail. */
export interface ObjectStore {
  put(key: string, image: Uint8Array, contentType: string, thumbnail: Uint8Array): Promise<void>;
  /** The image's or the thumbnail's bytes; undefined when the object is gone. */
  get(key: string, part: 'image' | 'thumbnail'): Promise<Uint8Array | undefined>;
  /** Removes both objects; removing objects already gone succeeds (the outbox's worker may retry). */
  remove(key: string): Promise<void>;
  /** The object key of a new attachment of the user. */
  keyFor(userId: string, attachmentId: string): string;
  /**
   * Every object under the attachments' prefix (images and thumbnails), a page at a time, with the time it was
   * written: what the orphan sweep looks through (orphan-sweep.ts).
   */
  list(): AsyncIterable<StoredObject[]>;
  close(): void;
}

export interface StoredObject {
  key: string;
  modifiedAt: Date;
}

export interface S3Location {
  client: S3ClientConfig;
  bucket: string;
  /** Prepended to every object key ('' or ending in '/'). */
  prefix: string;
}

const TRUE = new Set(['1', 'true', 'yes']);

/**
 * ATTACHMENTS_S3_URL read: `http(s)://ACCESS_KEY:SECRET@HOST[:PORT]/BUCKET[/PREFIX]?region=REGION&forcePathStyle=true`.
 * Key and secret are percent-encoded in the URL; without them the SDK's own chain is used (environment, instance
 * role). `region` defaults to us-east-1; `forcePathStyle` (bucket in the path, as MinIO and most other S3 servers
 * want) defaults to true unless the host is AWS's.
 */
export function parseS3Url(text: string): S3Location {
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('ATTACHMENTS_S3_URL must be an http:// or https:// URL');
  const [bucket, ...rest] = url.pathname.split('/').filter(Boolean);
  if (!bucket) throw new Error('ATTACHMENTS_S3_URL must name the bucket as its path (https://host/bucket)');
  const region = url.searchParams.get('region') ?? 'us-east-1';
  const pathStyle = url.searchParams.get('forcePathStyle');
  const aws = /(^|\.)amazonaws\.com$/i.test(url.hostname);
  const client: S3ClientConfig = {
    endpoint: `${url.protocol}//${url.host}`,
    region,
    forcePathStyle: pathStyle === null ? !aws : TRUE.has(pathStyle.toLowerCase()),
    // S3-protocol servers other than AWS refuse or mishandle the SDK's default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  };
  if (url.username)
    client.credentials = {
      accessKeyId: decodeURIComponent(url.username),
      secretAccessKey: decodeURIComponent(url.password),
    };
  return { client, bucket, prefix: rest.length > 0 ? `${rest.join('/')}/` : '' };
}

const THUMBNAIL_SUFFIX = '.thumbnail.webp';
const thumbnailKey = (key: string) => `${key}${THUMBNAIL_SUFFIX}`;
/** The attachment's key of one of its two objects: the image's own, or the thumbnail's without its suffix. */
export const attachmentKeyOf = (objectKey: string) =>
  objectKey.endsWith(THUMBNAIL_SUFFIX) ? objectKey.slice(0, -THUMBNAIL_SUFFIX.length) : objectKey;

/** The bucket of ATTACHMENTS_S3_URL, through the official AWS SDK. */
export function createS3Store(url: string): ObjectStore {
  const { client: config, bucket, prefix } = parseS3Url(url);
  const client = new S3Client(config);
  const root = `${prefix}attachments/`;
  return {
    keyFor: (userId, attachmentId) => `${root}${userId}/${attachmentId}`,
    async *list() {
      let token: string | undefined;
      do {
        const res = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: root, ContinuationToken: token, MaxKeys: 1000 }),
        );
        const page: StoredObject[] = [];
        for (const o of res.Contents ?? [])
          if (o.Key && o.LastModified) page.push({ key: o.Key, modifiedAt: o.LastModified });
        if (page.length > 0) yield page;
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
    },
    async put(key, image, contentType, thumbnail) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: image, ContentType: contentType }));
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: thumbnailKey(key), Body: thumbnail, ContentType: 'image/webp' }),
      );
    },
    async get(key, part) {
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: part === 'image' ? key : thumbnailKey(key) }),
        );
        return res.Body ? await res.Body.transformToByteArray() : undefined;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async remove(key) {
      // One DELETE per object rather than DeleteObjects: that one needs a body checksum, which servers other than
      // AWS read differently; deleting a missing object succeeds either way.
      for (const Key of [key, thumbnailKey(key)]) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
    },
    close: () => client.destroy(),
  };
}
