/**
 * The file store on an S3-compatible bucket, for servers on several machines: a key is the object
 * `<prefix>/<key>`. A PutObject replaces an object at once (a reader sees the old or the new one),
 * so no staging is needed. The client comes from @shop/s3 (tools/s3), as the release
 * storage's does.
 */
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { assertFileKey, assertFilePrefix, type FileStore } from './file-store.ts';
import { isMissing, listS3 } from '@shop/s3';

export type S3FileStoreOptions = {
  client: S3Client;
  bucket: string;
  /** Key prefix inside the bucket, e.g. `shop/files` (no leading or trailing slash); none by default. */
  prefix?: string;
};

export function s3FileStore(options: S3FileStoreOptions): FileStore {
  const { client, bucket } = options;
  const prefix = options.prefix ?? '';
  if (prefix !== '') assertFileKey(prefix);
  const objectKey = (key: string) => {
    assertFileKey(key);
    return prefix ? `${prefix}/${key}` : key;
  };
  return {
    async put(key, data, contentType) {
      const Key = objectKey(key);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: data, ContentType: contentType }));
    },
    async get(key) {
      const Key = objectKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      const Key = objectKey(key);
      // DeleteObject of a missing key succeeds (204), as `remove` promises.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
    },
    async list(folder) {
      assertFilePrefix(folder);
      const under = [prefix, folder].filter((part) => part !== '').join('/');
      const { keys } = await listS3(client, bucket, under === '' ? '' : `${under}/`);
      const strip = prefix === '' ? 0 : prefix.length + 1;
      return keys.map((key) => key.slice(strip)).sort();
    },
    describe: () => `s3://${bucket}/${prefix ? `${prefix}/` : ''}`,
  };
}
