/**
 * A real S3-compatible server for the tests: s3rver on 127.0.0.1 (a free
 * port), storing into a temporary directory that `stop()` removes, with a
 * fresh bucket. Each `storage()` is an `s3Storage` under a key prefix of its
 * own (so every test starts empty) with a temporary cache directory.
 *
 * s3rver ignores conditional writes (If-None-Match / If-Match on PUT and
 * DELETE answer 200 and overwrite). With `conditionalWrites: true` a small
 * middleware in front of it honours them as AWS S3 does (412
 * PreconditionFailed), one request per key at a time, so the storage's
 * conditional path is tested over HTTP too.
 *
 * s3rver's file store is also not atomic the way S3 is, which the storage
 * relies on: a PUT truncates the object's file and writes it in place (and
 * answers before the data is flushed), so a GET at the same time gets a
 * torn body (or a Content-Length it never sends: the client then fails with
 * ECONNRESET once the server drops the idle connection); and deleting a key
 * removes its directory once empty, racing a listing, a write into that
 * directory or another delete (DeleteObjects deletes its keys in parallel),
 * which then fail with InternalError (ENOENT). Here a PUT's body is written
 * to a scratch file first and renamed into place, and the store's writes,
 * copies, deletes, listings and the opening of reads run one at a time.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { s3Storage, type S3Storage, type S3StorageOptions } from '../../src/index.ts';
import { createS3Client } from '@shop/s3';

type KoaContext = {
  method: string;
  path: string;
  querystring: string;
  headers: Record<string, string | string[] | undefined>;
  req: NodeJS.ReadableStream;
};
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
type StoredObject = { bucket: string; key: string; content: Buffer | NodeJS.ReadableStream; metadata: Record<string, string> };
type Store = {
  existsObject(bucket: string, key: string): Promise<boolean>;
  getMetadata(bucket: string, key: string): Promise<{ etag: string }>;
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
} & Record<'copyObject' | 'deleteObject' | 'listObjects' | 'getObject', (...args: unknown[]) => Promise<unknown>>;
type S3rverInstance = { run(): Promise<{ port: number }>; close(): Promise<void>; middleware: Middleware[]; store: Store };
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
type S3ErrorClass = new (code: string, message: string, detail?: Record<string, string>) => Error;
type S3ObjectClass = new (bucket: string, key: string, content: Buffer, metadata: Record<string, string>) => StoredObject;

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;
const S3Error = require('s3rver/lib/models/error') as S3ErrorClass;
const S3Object = require('s3rver/lib/models/object') as S3ObjectClass;

/** s3rver's built-in account. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export type S3TestServer = {
  endpoint: string;
  bucket: string;
  client: S3Client;
  /** Every request the server got so far, as `METHOD /bucket/key?query` (the key decoded); tests may empty it. */
  requests: string[];
  /** Writes objects straight into the server's store (many at once, fast), by bucket key. */
  seed(keys: string[], body?: string): Promise<void>;
  /** The file on the server's disk that holds an object's bytes, by bucket key (to change them behind its back, its metadata kept). */
  objectFile(key: string): string;
  /** A storage under a prefix of its own, empty. */
  storage(options?: Partial<Pick<S3StorageOptions, 'conditionalWrites' | 'concurrency'>>): S3Storage;
  stop(): Promise<void>;
};

/** If-None-Match: * and If-Match on object writes and deletes, checked and applied one request per key at a time. */
function conditionalWrites(store: Store): Middleware {
  const queues = new Map<string, Promise<void>>();
  return async (ctx, next) => {
    const ifNoneMatch = ctx.headers['if-none-match'];
    const ifMatch = ctx.headers['if-match'];
    const [, bucket, ...rest] = ctx.path.split('/');
    if (
      (ctx.method !== 'PUT' && ctx.method !== 'DELETE') ||
      !bucket ||
      rest.length === 0 ||
      (ifNoneMatch === undefined && ifMatch === undefined)
    )
      return next();
    const key = decodeURIComponent(rest.join('/'));
    const id = `${bucket}/${key}`;
    const before = queues.get(id) ?? Promise.resolve();
    let release = () => {};
    const mine = new Promise<void>((resolve) => (release = resolve));
    const queued = before.then(() => mine);
    queues.set(id, queued);
    await before;
    try {
      const exists = await store.existsObject(bucket, key);
      const etag = exists ? (await store.getMetadata(bucket, key)).etag : null;
      const failed = (ifNoneMatch === '*' && exists) || (ifMatch !== undefined && (etag === null || ifMatch !== etag));
      if (failed) {
        // Read the body first, as S3 does: a reply before it makes the client see the connection cut.
        await new Promise((resolve, reject) => ctx.req.on('end', resolve).on('error', reject).resume());
        throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', {
          Condition: ifNoneMatch ? 'If-None-Match' : 'If-Match',
        });
      }
      await next();
    } finally {
      release();
      if (queues.get(id) === queued) queues.delete(id);
    }
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Makes the store's object operations atomic towards each other (see above). */
function atomicStore(store: Store, scratch: string): void {
  let queue: Promise<unknown> = Promise.resolve();
  const alone = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => undefined);
    return result;
  };
  for (const method of ['copyObject', 'deleteObject', 'listObjects', 'getObject'] as const) {
    const original = store[method].bind(store);
    store[method] = (...args) => alone(() => original(...args));
  }
  store.putObject = async (object) => {
    const content = Buffer.isBuffer(object.content) ? object.content : await readAll(object.content);
    const md5 = createHash('md5').update(content).digest('hex');
    const file = join(scratch, randomUUID());
    await writeFile(file, content);
    return alone(async () => {
      const path = store.getResourcePath(object.bucket, object.key, 'object');
      await mkdir(dirname(path), { recursive: true });
      await rename(file, path);
      await store.putMetadata(object.bucket, object.key, object.metadata, md5);
      return { size: content.length, md5 };
    });
  };
}

export async function startS3Server(options: { conditionalWrites?: boolean } = {}): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const scratch = mkdtempSync(join(tmpdir(), 's3rver-uploads-'));
  const cacheDirs: string[] = [];
  const removeAll = () => {
    for (const dir of [directory, scratch, ...cacheDirs.splice(0)]) rmSync(dir, { recursive: true, force: true });
  };
  const bucket = `releases-${randomUUID().slice(0, 8)}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  atomicStore(server.store, scratch);
  if (options.conditionalWrites) server.middleware.unshift(conditionalWrites(server.store));
  const requests: string[] = [];
  server.middleware.unshift(async (ctx, next) => {
    requests.push(`${ctx.method} ${decodeURIComponent(ctx.path)}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
    await next();
  });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    removeAll();
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const client = createS3Client({ region: 'eu-central-1', endpoint, credentials: S3RVER_CREDENTIALS });
  return {
    endpoint,
    bucket,
    client,
    requests,
    async seed(keys, body = '') {
      await Promise.all(
        keys.map((key) => server.store.putObject(new S3Object(bucket, key, Buffer.from(body), { 'content-type': 'text/plain' }))),
      );
    },
    objectFile(key) {
      return server.store.getResourcePath(bucket, key, 'object');
    },
    storage(extra = {}) {
      const cacheDir = mkdtempSync(join(tmpdir(), 's3-cache-'));
      cacheDirs.push(cacheDir);
      return s3Storage({ client, bucket, prefix: `t-${randomUUID().slice(0, 8)}/origin`, cacheDir, ...extra });
    },
    async stop() {
      client.destroy();
      try {
        await server.close();
      } finally {
        removeAll();
      }
    },
  };
}
