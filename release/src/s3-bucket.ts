/**
 * The S3 storage's view of its bucket: storage keys under the storage's prefix, and the few
 * requests every method of the storage is made of (the keys given here are bucket keys).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type PutObjectCommandInput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { deleteS3Keys, isInvalidRange, isMissing, listS3 } from '@shop/s3';
import { contentHeaders } from './s3-keys.ts';

export type S3Bucket = {
  client: S3Client;
  /** The bucket's name. */
  name: string;
  /** Requests in flight at once in the methods that make many. */
  concurrency: number;
  /** The bucket key of a storage key. */
  full(key: string): string;
  /** The bucket prefix of everything under a folder ('' is the storage's root). */
  under(folder: string): string;
  /** Writes an object (with the Content-Type of its name); its ETag. */
  put(key: string, body: string | Uint8Array, extra?: Partial<PutObjectCommandInput>): Promise<string | undefined>;
  /** An object's bytes (with `maxBytes`, at most its first `maxBytes + 1`), or null when it is not there. */
  get(key: string, maxBytes?: number): Promise<{ body: Uint8Array; etag: string | undefined } | null>;
  /** The object's ETag and last modification, or null when it is not there. */
  headObject(key: string): Promise<{ etag: string; lastModified: number } | null>;
  /** The object's ETag, or null when it is not there. */
  head(key: string): Promise<string | null>;
  deleteKey(key: string, extra?: { IfMatch?: string }): Promise<void>;
  /** Every object under a bucket prefix (all pages); with a delimiter, also the "folders" directly under it. */
  listing(bucketPrefix: string, delimiter?: string): ReturnType<typeof listS3>;
  /** Deletes bucket keys, a few batches of a thousand at once. */
  deleteKeys(keys: string[]): Promise<void>;
};

export function s3Bucket(client: S3Client, bucket: string, prefix: string, concurrency: number): S3Bucket {
  const full = (key: string) => (prefix ? `${prefix}/${key}` : key);

  async function get(key: string, maxBytes?: number): Promise<{ body: Uint8Array; etag: string | undefined } | null> {
    try {
      const range = maxBytes === undefined ? {} : { Range: `bytes=0-${maxBytes}` };
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...range }));
      const body = answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
      // A server that ignores the range still answers no more than was asked for.
      return { body: maxBytes === undefined ? body : body.subarray(0, maxBytes + 1), etag: answer.ETag };
    } catch (error) {
      if (isMissing(error)) return null;
      // A range of an empty object is not satisfiable: it is there, with no bytes.
      if (maxBytes !== undefined && isInvalidRange(error)) return { body: new Uint8Array(), etag: undefined };
      throw error;
    }
  }

  async function headObject(key: string): Promise<{ etag: string; lastModified: number } | null> {
    try {
      const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { etag: answer.ETag ?? '', lastModified: answer.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    client,
    name: bucket,
    concurrency,
    full,
    under: (folder) => (folder === '' ? (prefix ? `${prefix}/` : '') : `${full(folder)}/`),
    async put(key, body, extra = {}) {
      const answer = await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...contentHeaders(key), ...extra }));
      return answer.ETag;
    },
    get,
    headObject,
    head: async (key) => (await headObject(key))?.etag ?? null,
    async deleteKey(key, extra = {}) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, ...extra }));
    },
    listing: (bucketPrefix, delimiter) => listS3(client, bucket, bucketPrefix, delimiter),
    deleteKeys: (keys) => deleteS3Keys(client, bucket, keys, Math.min(concurrency, 4)),
  };
}
