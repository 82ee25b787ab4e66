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
 *
 * Here the storage is assembled; its parts: s3-keys.ts (key checks, content
 * types), s3-bucket.ts (the requests), s3-folders.ts (folders and markers),
 * s3-conditional-writes.ts (the probe, exclusive creation, append, rename),
 * s3-local-copies.ts (`materialize`). The S3 client itself is @shop/s3's.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { s3Bucket } from './s3-bucket.ts';
import { appendText, type ConditionalSupport, conditionalSupportOf, createExclusive, renameKey } from './s3-conditional-writes.ts';
import { folderExists, listFolder, putFolder, removeFolder } from './s3-folders.ts';
import { assertKey } from './s3-keys.ts';
import { s3LocalCopies } from './s3-local-copies.ts';
import type { ReleaseStorage } from './storage.ts';

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

export function s3Storage(options: S3StorageOptions): S3Storage {
  const prefix = options.prefix ?? '';
  if (prefix !== '') assertKey(prefix);
  const bucket = s3Bucket(options.client, options.bucket, prefix, Math.max(1, Math.min(64, options.concurrency ?? 8)));
  const { full } = bucket;
  const conditionalSupport = conditionalSupportOf(bucket, options.conditionalWrites);
  const localPath = (key: string) => {
    assertKey(key);
    return join(options.cacheDir, key);
  };

  return {
    local: false,
    localPath,
    location(key) {
      assertKey(key);
      return `s3://${bucket.name}/${full(key)}`;
    },
    conditionalSupport,
    async exists(key) {
      assertKey(key);
      return (await bucket.head(full(key))) !== null || folderExists(bucket, key);
    },
    async stamp(key) {
      assertKey(key);
      // One HEAD: the ETag changes with the content, the last modification with every write.
      const found = await bucket.headObject(full(key));
      return found ? `${found.etag}@${found.lastModified}` : null;
    },
    async readText(key) {
      assertKey(key);
      const found = await bucket.get(full(key));
      return found ? Buffer.from(found.body).toString('utf8') : null;
    },
    async readBytes(key, maxBytes) {
      assertKey(key);
      const found = await bucket.get(full(key), maxBytes);
      return found ? Buffer.from(found.body) : null;
    },
    async writeTextAtomic(key, content) {
      assertKey(key);
      // One PutObject is atomic: readers get the old object or the new one.
      await bucket.put(full(key), content);
    },
    async appendText(key, line) {
      assertKey(key);
      await appendText(bucket, await conditionalSupport(), key, line);
    },
    async putFolder(localDir, key) {
      assertKey(key);
      await putFolder(bucket, localDir, key);
    },
    async list(key) {
      if (key !== '') assertKey(key);
      return listFolder(bucket, key);
    },
    async removeFolder(key) {
      assertKey(key);
      await removeFolder(bucket, key);
      await rm(localPath(key), { recursive: true, force: true });
    },
    async createExclusive(key, content) {
      assertKey(key);
      return createExclusive(bucket, await conditionalSupport(), key, content);
    },
    async remove(key) {
      assertKey(key);
      await bucket.deleteKey(full(key));
    },
    async rename(from, to) {
      assertKey(from);
      assertKey(to);
      return renameKey(bucket, await conditionalSupport(), from, to);
    },
    materialize: s3LocalCopies(bucket, localPath),
  };
}
