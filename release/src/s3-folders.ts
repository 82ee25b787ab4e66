/**
 * Folders in the S3 storage, which S3 does not have: a folder is every key under `<folder>/`, and
 * an in-progress marker beside it (`<folder>.s3-storage-incomplete`) hides it while it is being
 * uploaded or deleted (see s3-storage.ts for why beside rather than inside).
 */
import { readdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative, sep } from 'node:path';
import { ListObjectsCommand } from '@aws-sdk/client-s3';
import { eachLimited } from '@shop/s3';
import type { S3Bucket } from './s3-bucket.ts';
import { assertKey, INCOMPLETE, RESERVED } from './s3-keys.ts';

/** The bucket key of a folder's in-progress marker. */
const markerOf = (bucket: S3Bucket, key: string) => bucket.full(`${key}${INCOMPLETE}`);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** A folder exists when something is under it and it is not being uploaded or deleted. */
export async function folderExists(bucket: S3Bucket, key: string): Promise<boolean> {
  if ((await bucket.head(markerOf(bucket, key))) !== null) return false;
  const page = await bucket.client.send(new ListObjectsCommand({ Bucket: bucket.name, Prefix: bucket.under(key), MaxKeys: 1 }));
  return (page.Contents?.length ?? 0) > 0;
}

/** Uploads a local folder under the marker, which is deleted last; a folder there already is kept (same content, same version). */
export async function putFolder(bucket: S3Bucket, localDir: string, key: string): Promise<void> {
  // The same content-hashed version, uploaded before (or by another release first): same bytes.
  if (await folderExists(bucket, key)) return;
  const names = await filesUnder(localDir);
  for (const name of names) assertKey(`${key}/${name}`);
  const marker = markerOf(bucket, key);
  await bucket.put(marker, JSON.stringify({ host: hostname(), pid: process.pid, since: new Date().toISOString(), files: names.length }));
  try {
    await eachLimited(names, bucket.concurrency, async (name) => {
      await bucket.put(bucket.full(`${key}/${name}`), await readFile(join(localDir, name)));
    });
  } catch (error) {
    // Take the half back (still hidden by the marker); if that fails too, the marker keeps it hidden.
    await removeFolder(bucket, key).catch(() => undefined);
    throw error;
  }
  await bucket.deleteKey(marker);
}

/** Deletes a folder (and a file of its name), hidden by the marker while its keys go. */
export async function removeFolder(bucket: S3Bucket, key: string): Promise<void> {
  const { objects } = await bucket.listing(bucket.under(key));
  const marker = markerOf(bucket, key);
  if (objects.length > 0) {
    // Hidden first, so readers never see a half-deleted release.
    await bucket.put(marker, JSON.stringify({ removing: true, host: hostname(), pid: process.pid, since: new Date().toISOString() }));
    await bucket.deleteKeys(objects.map((object) => object.key));
  }
  await bucket.deleteKey(bucket.full(key));
  await bucket.deleteKey(marker);
}

/** The names directly under a folder ('' is the root), files and folders, without hidden folders or the storage's own keys. */
export async function listFolder(bucket: S3Bucket, key: string): Promise<string[]> {
  if (key !== '' && (await bucket.head(markerOf(bucket, key))) !== null) return [];
  const base = bucket.under(key);
  const { objects, folders } = await bucket.listing(base, '/');
  const files = objects.map((object) => object.key.slice(base.length));
  const hidden = new Set(files.filter((name) => name.endsWith(INCOMPLETE)).map((name) => name.slice(0, -INCOMPLETE.length)));
  const names = new Set<string>();
  for (const name of files) if (!name.includes(RESERVED)) names.add(name);
  for (const folder of folders) {
    const name = folder.slice(base.length, -1);
    if (name !== '' && !name.includes(RESERVED) && !hidden.has(name)) names.add(name);
  }
  return [...names].sort();
}
