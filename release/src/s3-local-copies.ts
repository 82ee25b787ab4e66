/**
 * Local copies of the S3 storage's keys, for what must read from disk: `materialize` downloads a
 * file or a folder into the storage's cache directory and says where it is.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { eachLimited } from '@shop/s3';
import type { S3Bucket } from './s3-bucket.ts';
import { folderExists } from './s3-folders.ts';
import { assertKey } from './s3-keys.ts';

/** Downloads a folder into a staging folder beside `target`, then renames it into place. */
async function downloadFolder(bucket: S3Bucket, key: string, target: string): Promise<string> {
  if (!(await folderExists(bucket, key))) return target;
  const base = bucket.under(key);
  const { objects } = await bucket.listing(base);
  const staging = `${target}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await eachLimited(objects, bucket.concurrency, async (object) => {
      const name = object.key.slice(base.length);
      assertKey(name);
      const found = await bucket.get(object.key);
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

/** `materialize` for a bucket: `localPath` is where a key's copy lives (it checks the key). */
export function s3LocalCopies(bucket: S3Bucket, localPath: (key: string) => string): (key: string) => Promise<string> {
  /** Folder downloads under way, by target: a second caller waits for the first. */
  const downloads = new Map<string, Promise<string>>();

  return async function materialize(key) {
    const target = localPath(key);
    // A folder downloaded before: released folders never change.
    if (
      await stat(target).then(
        (info) => info.isDirectory(),
        () => false,
      )
    )
      return target;
    const file = await bucket.get(bucket.full(key));
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
      download = downloadFolder(bucket, key, target).finally(() => downloads.delete(target));
      downloads.set(target, download);
    }
    return download;
  };
}
