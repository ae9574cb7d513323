import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { parseS3Url } from '../modules/attachments/object-store';

/** A bucket of s3rver (an S3-protocol server for tests) on loopback, kept in a temporary directory. */
export interface TestBucket {
  /** ATTACHMENTS_S3_URL for this bucket, its objects under `prefix/`. */
  url: string;
  /** Every object key in the bucket, sorted, through the AWS SDK. */
  keys(): Promise<string[]>;
  /** Puts a small object under `key`, as another writer of the bucket would. */
  put(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts s3rver with one bucket; the app reaches it as `ATTACHMENTS_S3_URL` (url), the test lists it directly. */
export async function startTestBucket(bucket: string, prefix = 'pipsense'): Promise<TestBucket> {
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const url = `http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}/${prefix}?region=us-east-1&forcePathStyle=true`;
  const client = new S3Client(parseS3Url(url).client);
  return {
    url,
    async keys() {
      const res = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (res.Contents ?? []).map((o) => o.Key!).sort();
    },
    async put(key) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'x' }));
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The user id a session token names (its `sub`), for the object keys under the user's prefix. */
export const userIdOfToken = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;
