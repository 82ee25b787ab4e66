/**
 * Releases on an S3-compatible object store: the same `ReleaseStorage` as the
 * local directory, key for key (`<prefix>/remotes/checkout/<version>/…`,
 * `<prefix>/builds/latest.json`, …).
 *
 * What S3 does not have, and how each method makes up for it:
 *
 * - Folders. A "folder" is every key under `<folder>/`. `putFolder` cannot
 *   upload many objects at once, so it first writes an in-progress marker
 *   beside the folder (`<folder>.s3-storage-incomplete`), then every file
 *   under its final key, and deletes the marker last; `exists` and `list`
 *   treat a folder with a marker as absent. A crashed upload leaves the
 *   marker, so its half is never seen as a release (the next upload of the
 *   same content-hashed version completes it). `removeFolder` writes the
 *   marker first too, so a folder being deleted disappears at once rather
 *   than file by file. A marker beside the folder, not inside it, lets `list`
 *   see every folder and its marker in one listing, and leaves folders that
 *   no `putFolder` made (`builds/`) visible as on disk. A key inside a folder
 *   being uploaded can still be read by its exact name (callers read released
 *   folders through `exists` first).
 * - Exclusive creation (the release lock). With a server that honours
 *   conditional writes (AWS S3 since 2024, MinIO, …), `createExclusive` is a
 *   PutObject with `If-None-Match: *` (412 => false). s3rver, the local server
 *   of the tests, ignores If-None-Match and If-Match on writes (it answers 200
 *   and overwrites), so whether the server honours them is probed once (see
 *   `probeConditionalWrites`), and without them a claim protocol that needs
 *   only strongly consistent PUT, LIST and HEAD (as S3 has been since 2020) is
 *   used instead (see `claimExclusively`).
 * - Append. The release log is read, extended and written back; with If-Match
 *   the write only succeeds over the version that was read (else it is
 *   retried). Without If-Match (s3rver) two appends at once could lose one:
 *   the release log is appended only by the release holding the lock.
 * - Rename: a copy (only of the version that was looked at) and a delete
 *   (conditional where the server supports it). Files only.
 * - Local reads: `materialize` downloads into `cacheDir`.
 * - Change markers: `stamp` is a HEAD (ETag and last modification).
 *
 * Keys are checked before any request: no `..`, no leading `/`, no empty or
 * control characters, and nothing named `.s3-storage…` (reserved here).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  type PutObjectCommandInput,
} from '@aws-sdk/client-s3';
import { listS3 } from './s3-list.ts';
import type { ReleaseStorage } from './storage.ts';

/** Which conditional requests the server honours (rather than ignores). */
export type ConditionalSupport = {
  /** PutObject `If-None-Match: *`: create only if absent. */
  ifNoneMatch: boolean;
  /** PutObject `If-Match: <etag>`: replace only the version that was read. */
  ifMatch: boolean;
  /** DeleteObject `If-Match: <etag>`. */
  deleteIfMatch: boolean;
};

export type S3StorageOptions = {
  client: S3Client;
  bucket: string;
  /** Key prefix inside the bucket, e.g. `shop/releases` (no leading or trailing slash); none by default. */
  prefix?: string;
  /** Where `materialize` downloads keys to (`localPath` points into it). */
  cacheDir: string;
  /** Requests in flight at once in `putFolder`, `removeFolder` and `materialize` (default 8). */
  concurrency?: number;
  /** What the server honours, when known; probed once (a few requests on a scratch key) otherwise. */
  conditionalWrites?: ConditionalSupport;
};

export type S3Storage = ReleaseStorage & {
  /** What the server turned out to honour (probes it on first use unless given). */
  conditionalSupport(): Promise<ConditionalSupport>;
};

/** Marks a folder being uploaded or deleted: `<folder>.s3-storage-incomplete`. */
const INCOMPLETE = '.s3-storage-incomplete';
/** The storage's own keys (claims, probes), beside the caller's: `<prefix>/.s3-storage/…`. */
const INTERNAL = '.s3-storage';
/** No key of the caller's may contain it (markers and internal keys do). */
const RESERVED = INTERNAL;
/** A claim older than this (by the server's clock) belongs to a process that died while creating a key. */
const CLAIM_STALE_MS = 30_000;
const CLAIM_ATTEMPTS = 30;
/** Rounds of read-modify-write for `appendText` when a conditional write loses to another writer. */
const APPEND_ATTEMPTS = 8;
const MAX_KEY_BYTES = 900;

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
  lock: 'application/json; charset=utf-8',
};

/**
 * Content-Type (and Content-Encoding of a precompressed sibling: `page.js.br`
 * is JavaScript in brotli) by a key's extension.
 */
export function contentHeaders(key: string): { ContentType: string; ContentEncoding?: string } {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const encoding = name.endsWith('.br') ? 'br' : name.endsWith('.gz') ? 'gzip' : undefined;
  const base = encoding ? name.slice(0, name.lastIndexOf('.')) : name;
  const dot = base.lastIndexOf('.');
  const type = (dot > 0 ? CONTENT_TYPES[base.slice(dot + 1).toLowerCase()] : undefined) ?? 'application/octet-stream';
  return encoding ? { ContentType: type, ContentEncoding: encoding } : { ContentType: type };
}

/** Throws unless `key` is a plain relative key: segments of printable characters, no `..`, nothing reserved. */
export function assertKey(key: string): void {
  const problem =
    typeof key !== 'string' || key === ''
      ? 'is empty'
      : Buffer.byteLength(key) > MAX_KEY_BYTES
        ? `is longer than ${MAX_KEY_BYTES} bytes`
        : key.startsWith('/')
          ? 'starts with /'
          : key.includes('..')
            ? 'contains ..'
            : key.includes('\\')
              ? 'contains a backslash'
              : [...key].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)
                ? 'contains a control character'
                : key.split('/').some((segment) => segment === '' || segment === '.')
                  ? 'has an empty or "." segment'
                  : key.includes(RESERVED)
                    ? `names ${RESERVED}, which the storage reserves`
                    : null;
  if (problem) throw new Error(`Release storage key ${JSON.stringify(String(key).slice(0, 100))} ${problem}.`);
}

type ErrorLike = { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
const statusOf = (error: unknown) => (error as ErrorLike | null)?.$metadata?.httpStatusCode;
const nameOf = (error: unknown) => (error as ErrorLike | null)?.name ?? (error as ErrorLike | null)?.Code;
/** The key is not there (a wrong bucket is an error, not an absent key). */
const isMissing = (error: unknown) =>
  nameOf(error) === 'NoSuchKey' || nameOf(error) === 'NotFound' || (statusOf(error) === 404 && nameOf(error) !== 'NoSuchBucket');
const isPreconditionFailed = (error: unknown) => nameOf(error) === 'PreconditionFailed' || statusOf(error) === 412;
/** AWS answers 409 to a conditional write racing another one on the same key: try again. */
const isConditionalConflict = (error: unknown) => nameOf(error) === 'ConditionalRequestConflict' || statusOf(error) === 409;
/** A server that rejects a conditional header outright rather than ignoring it. */
const isUnsupported = (error: unknown) => nameOf(error) === 'NotImplemented' || statusOf(error) === 501;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` over `items` with at most `limit` at a time; the first failure is thrown once the running ones settle. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (next < items.length && failures.length === 0) {
      const item = items[next++]!;
      await work(item).catch((error: unknown) => {
        failures.push(error);
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failures.length > 0) throw failures[0];
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * A client for `s3Storage`. An `endpoint` means an S3-compatible server (path-style
 * addressing, and checksums only where the API requires them: s3rver stores the
 * SDK's default aws-chunked framing of a streamed upload as the object's bytes).
 * Without credentials the SDK's default chain is used (AWS_ACCESS_KEY_ID, …).
 */
export function createS3Client(options: {
  region: string;
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}): S3Client {
  return new S3Client({
    region: options.region,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.endpoint
      ? {
          endpoint: options.endpoint,
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }
      : {}),
  });
}

export function s3Storage(options: S3StorageOptions): S3Storage {
  const { client, bucket, cacheDir } = options;
  const prefix = options.prefix ?? '';
  if (prefix !== '') assertKey(prefix);
  const concurrency = Math.max(1, Math.min(64, options.concurrency ?? 8));
  /** The bucket key of a storage key. */
  const full = (key: string) => (prefix ? `${prefix}/${key}` : key);
  /** The bucket prefix of everything under a folder ('' is the storage's root). */
  const under = (folder: string) => (folder === '' ? (prefix ? `${prefix}/` : '') : `${full(folder)}/`);
  const localPath = (key: string) => {
    assertKey(key);
    return join(cacheDir, key);
  };

  async function put(key: string, body: string | Uint8Array, extra: Partial<PutObjectCommandInput> = {}): Promise<string | undefined> {
    const answer = await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...contentHeaders(key), ...extra }));
    return answer.ETag;
  }

  /** An object's bytes (with `maxBytes`, at most its first `maxBytes + 1`), or null when it is not there. */
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
      if (maxBytes !== undefined && (nameOf(error) === 'InvalidRange' || statusOf(error) === 416))
        return { body: new Uint8Array(), etag: undefined };
      throw error;
    }
  }

  /** The object's ETag and last modification, or null when it is not there. */
  async function headObject(key: string): Promise<{ etag: string; lastModified: number } | null> {
    try {
      const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { etag: answer.ETag ?? '', lastModified: answer.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** The object's ETag, or null when it is not there. */
  async function head(key: string): Promise<string | null> {
    return (await headObject(key))?.etag ?? null;
  }

  async function deleteKey(key: string, extra: { IfMatch?: string } = {}): Promise<void> {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, ...extra }));
  }

  /**
   * Every object under a bucket prefix (all pages); with a delimiter, also the "folders" directly
   * under it. ListObjects (version 1, paged by Marker) rather than V2: every S3-compatible server
   * has it, and s3rver's V2 continuation tokens are DES-encrypted, which Node's OpenSSL 3 refuses
   * (any truncated V2 listing fails there with InternalError).
   */
  const listing = (bucketPrefix: string, delimiter?: string) => listS3(client, bucket, bucketPrefix, delimiter);

  /** Deletes bucket keys, at most 1000 a request (the API's limit). */
  async function deleteKeys(keys: string[]): Promise<void> {
    const batches: string[][] = [];
    for (let start = 0; start < keys.length; start += 1000) batches.push(keys.slice(start, start + 1000));
    await eachLimited(batches, Math.min(concurrency, 4), async (batch) => {
      const answer = await client.send(
        new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0)
        throw new Error(
          `S3 could not delete ${failed.length} key(s), e.g. ${failed[0]!.Key}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`,
        );
    });
  }

  /**
   * Learns which conditional requests the server honours, on a scratch key: a second
   * create of an existing key with If-None-Match, a write and a delete with an If-Match
   * that cannot match. A server that honours them answers 412; one that ignores them
   * (s3rver) just does it; one that refuses the header (501) does not support it.
   */
  async function probeConditionalWrites(): Promise<ConditionalSupport> {
    const key = full(`${INTERNAL}/probe/${randomUUID()}`);
    const honoured = async (request: () => Promise<unknown>) =>
      request().then(
        () => false,
        (error: unknown) => {
          if (isPreconditionFailed(error)) return true;
          if (isUnsupported(error) || statusOf(error) === 400) return false;
          throw error;
        },
      );
    await put(key, 'probe');
    try {
      const ifNoneMatch = await honoured(() => put(key, 'probe', { IfNoneMatch: '*' }));
      const ifMatch = await honoured(() => put(key, 'probe', { IfMatch: '"0000"' }));
      const deleteIfMatch = await honoured(() => deleteKey(key, { IfMatch: '"0000"' }));
      return { ifNoneMatch, ifMatch, deleteIfMatch };
    } finally {
      await deleteKey(key);
    }
  }

  let support: Promise<ConditionalSupport> | null = options.conditionalWrites ? Promise.resolve(options.conditionalWrites) : null;
  const conditionalSupport = () => {
    support ??= probeConditionalWrites().catch((error: unknown) => {
      support = null;
      throw error;
    });
    return support;
  };

  /**
   * Creates `key` only if nobody has, without conditional writes. Each contender
   * writes a claim of its own under `.s3-storage/claims/<key>/` and keeps it until
   * it has decided; it lists the claims and goes on only when it sees no one
   * else's, and only if the key is still absent; it writes the key and only then
   * deletes its claim. Safety: of two contenders A and B whose listings both came
   * back alone, say A listed first. B's claim was not in A's listing and B kept it
   * from writing it to deciding, so B wrote it after A listed; B listed after
   * that, when A's claim was there unless A had already written the key, which B
   * then sees, and backs off. (This needs S3's strong read-after-write
   * consistency of PUT, LIST and HEAD, which it has had since 2020.) Liveness:
   * a contender that sees an older (smaller) claim withdraws and retries after a
   * random pause; the oldest waits a moment and lists again, so it soon finds
   * itself alone. A claim older than 30 s (server time, compared with one's own
   * claim) is a dead process's: it is ignored and deleted, so a contender must
   * not take longer than that from its claim to its write.
   */
  async function claimExclusively(key: string, body: string): Promise<boolean> {
    const claims = full(`${INTERNAL}/claims/${key}/`);
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
      if ((await head(full(key))) !== null) return false;
      // Ordered by time first, so a newcomer rarely outranks those already waiting.
      const mine = `${claims}${Date.now().toString(36).padStart(10, '0')}-${process.pid}-${randomUUID()}`;
      await put(mine, `${hostname()} ${process.pid}`);
      try {
        for (let look = 0; look < 20; look += 1) {
          const { objects } = await listing(claims);
          const own = objects.find((object) => object.key === mine);
          if (!own) break;
          const stale = objects.filter((object) => object.key !== mine && own.lastModified - object.lastModified > CLAIM_STALE_MS);
          if (stale.length > 0) await deleteKeys(stale.map((object) => object.key));
          const others = objects.filter((object) => object.key !== mine && own.lastModified - object.lastModified <= CLAIM_STALE_MS);
          if (others.length === 0) {
            if ((await head(full(key))) !== null) return false;
            await put(full(key), body);
            return true;
          }
          if (others.some((object) => object.key < mine)) break;
          await sleep(5 + Math.random() * 20);
        }
      } finally {
        await deleteKey(mine);
      }
      await sleep(10 + Math.random() * Math.min(1000, 25 * 2 ** Math.min(attempt, 6)));
    }
    // Contended throughout: report "taken" (the lock's caller waits and tries again).
    return false;
  }

  /** A folder exists when something is under it and it is not being uploaded or deleted. */
  async function folderExists(key: string): Promise<boolean> {
    if ((await head(full(`${key}${INCOMPLETE}`))) !== null) return false;
    const page = await client.send(new ListObjectsCommand({ Bucket: bucket, Prefix: under(key), MaxKeys: 1 }));
    return (page.Contents?.length ?? 0) > 0;
  }

  async function removeFolder(key: string): Promise<void> {
    const { objects } = await listing(under(key));
    const marker = full(`${key}${INCOMPLETE}`);
    if (objects.length > 0) {
      // Hidden first, so readers never see a half-deleted release.
      await put(marker, JSON.stringify({ removing: true, host: hostname(), pid: process.pid, since: new Date().toISOString() }));
      await deleteKeys(objects.map((object) => object.key));
    }
    await deleteKey(full(key));
    await deleteKey(marker);
  }

  const downloads = new Map<string, Promise<string>>();

  async function downloadFolder(key: string, target: string): Promise<string> {
    if (!(await folderExists(key))) return target;
    const { objects } = await listing(under(key));
    const staging = `${target}.${process.pid}.${randomUUID()}.tmp`;
    const base = under(key);
    try {
      await eachLimited(objects, concurrency, async (object) => {
        const name = object.key.slice(base.length);
        assertKey(name);
        const found = await get(object.key);
        if (!found) return; // Deleted since the listing: the folder is going away.
        const file = join(staging, name);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, found.body);
      });
      await mkdir(dirname(target), { recursive: true });
      await rename(staging, target).catch(async (error: NodeJS.ErrnoException) => {
        // Another process downloaded the same immutable folder first.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    return target;
  }

  return {
    local: false,
    localPath,
    location(key) {
      assertKey(key);
      return `s3://${bucket}/${full(key)}`;
    },
    conditionalSupport,

    async exists(key) {
      assertKey(key);
      if ((await head(full(key))) !== null) return true;
      return folderExists(key);
    },

    async stamp(key) {
      assertKey(key);
      // One HEAD: the ETag changes with the content, the last modification with every write.
      const found = await headObject(full(key));
      return found ? `${found.etag}@${found.lastModified}` : null;
    },

    async readText(key) {
      assertKey(key);
      const found = await get(full(key));
      return found ? Buffer.from(found.body).toString('utf8') : null;
    },

    async readBytes(key, maxBytes) {
      assertKey(key);
      const found = await get(full(key), maxBytes);
      return found ? Buffer.from(found.body) : null;
    },

    async writeTextAtomic(key, content) {
      assertKey(key);
      // One PutObject is atomic: readers get the old object or the new one.
      await put(full(key), content);
    },

    async appendText(key, line) {
      assertKey(key);
      const { ifMatch, ifNoneMatch } = await conditionalSupport();
      for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt += 1) {
        const current = await get(full(key));
        const next = Buffer.concat([current?.body ?? new Uint8Array(), Buffer.from(line)]);
        const guard: Partial<PutObjectCommandInput> =
          current && current.etag && ifMatch ? { IfMatch: current.etag } : !current && ifNoneMatch ? { IfNoneMatch: '*' } : {};
        try {
          await put(full(key), next, guard);
          return;
        } catch (error) {
          if (!isPreconditionFailed(error) && !isConditionalConflict(error)) throw error;
          await sleep(Math.random() * 50 * (attempt + 1));
        }
      }
      throw new Error(`Could not append to ${full(key)}: it kept changing under ${APPEND_ATTEMPTS} attempts.`);
    },

    async putFolder(localDir, key) {
      assertKey(key);
      // The same content-hashed version, uploaded before (or by another release first): same bytes.
      if (await folderExists(key)) return;
      const names = await filesUnder(localDir);
      for (const name of names) assertKey(`${key}/${name}`);
      const marker = full(`${key}${INCOMPLETE}`);
      await put(marker, JSON.stringify({ host: hostname(), pid: process.pid, since: new Date().toISOString(), files: names.length }));
      try {
        await eachLimited(names, concurrency, async (name) => {
          await put(full(`${key}/${name}`), await readFile(join(localDir, name)));
        });
      } catch (error) {
        // Take the half back (still hidden by the marker); if that fails too, the marker keeps it hidden.
        await removeFolder(key).catch(() => undefined);
        throw error;
      }
      await deleteKey(marker);
    },

    async list(key) {
      if (key !== '') assertKey(key);
      if (key !== '' && (await head(full(`${key}${INCOMPLETE}`))) !== null) return [];
      const base = under(key);
      const { objects, folders } = await listing(base, '/');
      const files = objects.map((object) => object.key.slice(base.length));
      const hidden = new Set(files.filter((name) => name.endsWith(INCOMPLETE)).map((name) => name.slice(0, -INCOMPLETE.length)));
      const names = new Set<string>();
      for (const name of files) if (!name.includes(RESERVED)) names.add(name);
      for (const folder of folders) {
        const name = folder.slice(base.length, -1);
        if (name !== '' && !name.includes(RESERVED) && !hidden.has(name)) names.add(name);
      }
      return [...names].sort();
    },

    async removeFolder(key) {
      assertKey(key);
      await removeFolder(key);
      await rm(localPath(key), { recursive: true, force: true });
    },

    async createExclusive(key, content) {
      assertKey(key);
      if (!(await conditionalSupport()).ifNoneMatch) return claimExclusively(key, content);
      for (let attempt = 0; ; attempt += 1) {
        try {
          await put(full(key), content, { IfNoneMatch: '*' });
          return true;
        } catch (error) {
          if (isPreconditionFailed(error)) return false;
          if (!isConditionalConflict(error) || attempt >= 5) throw error;
          await sleep(20 + Math.random() * 50);
        }
      }
    },

    async remove(key) {
      assertKey(key);
      await deleteKey(full(key));
    },

    async rename(from, to) {
      assertKey(from);
      assertKey(to);
      const { deleteIfMatch } = await conditionalSupport();
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const etag = await head(full(from));
        if (etag === null) return false;
        try {
          // Only the version looked at is copied (servers without If-Match copy whatever is there).
          await client.send(
            new CopyObjectCommand({
              Bucket: bucket,
              Key: full(to),
              CopySource: `${bucket}/${full(from).split('/').map(encodeURIComponent).join('/')}`,
              ...(etag ? { CopySourceIfMatch: etag } : {}),
            }),
          );
        } catch (error) {
          if (isMissing(error)) return false;
          if (isPreconditionFailed(error)) continue;
          throw error;
        }
        // A source replaced since the copy stays (the lock relies on this); without conditional deletes it is deleted too.
        await deleteKey(full(from), deleteIfMatch && etag ? { IfMatch: etag } : {}).catch((error: unknown) => {
          if (!isPreconditionFailed(error) && !isMissing(error)) throw error;
        });
        return true;
      }
      throw new Error(`Could not move ${full(from)}: it kept changing.`);
    },

    async materialize(key) {
      const target = localPath(key);
      // A folder downloaded before: released folders never change.
      if (
        await stat(target).then(
          (info) => info.isDirectory(),
          () => false,
        )
      )
        return target;
      const file = await get(full(key));
      if (file) {
        // A single file may change (the registry): fetched every time, replaced atomically.
        await mkdir(dirname(target), { recursive: true });
        const staging = `${target}.${process.pid}.${randomUUID()}.tmp`;
        await writeFile(staging, file.body);
        await rename(staging, target);
        return target;
      }
      // Not a file (any more): drop a copy of one that was removed, then look for a folder.
      await rm(target, { force: true }).catch(() => undefined);
      let download = downloads.get(target);
      if (!download) {
        download = downloadFolder(key, target).finally(() => downloads.delete(target));
        downloads.set(target, download);
      }
      return download;
    },
  };
}
