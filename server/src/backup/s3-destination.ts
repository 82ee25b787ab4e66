/**
 * Backups in an S3 bucket under a key prefix (BACKUP_S3_PREFIX in S3_BUCKET): each one the keys
 * `<prefix>/<name>/…`. S3 has no rename, so the manifest, uploaded last, is what makes a backup
 * complete: a backup without one is a half that `list` and `open` skip (and a removal deletes the
 * manifest first). Files are staged in a local temporary folder and streamed up one by one.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { deleteS3Keys, isMissing, listS3 } from '@shop/s3';
import type { BackupDestination, BackupReader, BackupWriter } from './destination.ts';
import { assertBackupPath, isBackupName, MANIFEST_FILE, parseManifest, timeOfBackupName } from './manifest.ts';

export type S3DestinationOptions = { client: S3Client; bucket: string; prefix: string };

export function s3Destination(options: S3DestinationOptions): BackupDestination {
  const { client, bucket } = options;
  const prefix = options.prefix.replace(/\/+$/, '');
  const folder = (name: string) => {
    if (!isBackupName(name)) throw new Error(`Not a backup name: ${JSON.stringify(name.slice(0, 80))}`);
    return `${prefix ? `${prefix}/` : ''}${name}/`;
  };
  const keyOf = (name: string, path: string) => {
    assertBackupPath(path);
    return `${folder(name)}${path}`;
  };

  async function hasManifest(name: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(name, MANIFEST_FILE) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async function download(key: string, target: string): Promise<void> {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    await mkdir(dirname(target), { recursive: true });
    const body = answer.Body;
    if (!(body instanceof Readable)) throw new Error(`S3 gave no readable body for ${key}`);
    await pipeline(body, createWriteStream(target));
  }

  /** Every backup "folder" under the prefix, complete or not. */
  async function names(): Promise<string[]> {
    const { folders } = await listS3(client, bucket, prefix ? `${prefix}/` : '', '/');
    return folders
      .map((entry) => entry.slice(prefix ? prefix.length + 1 : 0, -1))
      .filter(isBackupName)
      .sort();
  }

  const removeAll = async (name: string) => deleteS3Keys(client, bucket, (await listS3(client, bucket, folder(name))).keys);

  return {
    describe: () => `s3://${bucket}/${prefix ? `${prefix}/` : ''}`,

    async begin(name) {
      if ((await listS3(client, bucket, folder(name))).keys.length > 0)
        throw new Error(`A backup named ${name} exists in s3://${bucket}/${folder(name)}.`);
      const staging = await mkdtemp(join(tmpdir(), 'shop-backup-'));
      const uploaded: string[] = [];
      const writer: BackupWriter = {
        async stage(path) {
          assertBackupPath(path);
          const target = join(staging, path);
          await mkdir(dirname(target), { recursive: true });
          return target;
        },
        async add(path) {
          const local = join(staging, path);
          const key = keyOf(name, path);
          const { size } = await stat(local);
          await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(local), ContentLength: size }));
          uploaded.push(key);
          await rm(local, { force: true });
        },
        async complete(manifest) {
          const body = `${JSON.stringify(manifest, null, 2)}\n`;
          await client.send(
            new PutObjectCommand({ Bucket: bucket, Key: keyOf(name, MANIFEST_FILE), Body: body, ContentType: 'application/json' }),
          );
          await rm(staging, { recursive: true, force: true });
        },
        async abort() {
          await rm(staging, { recursive: true, force: true });
          await deleteS3Keys(client, bucket, uploaded);
        },
      };
      return writer;
    },

    async list() {
      const all = await names();
      const complete = await Promise.all(all.map(hasManifest));
      return all.filter((_, index) => complete[index]);
    },

    async open(name): Promise<BackupReader> {
      const answer = await client
        .send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(name, MANIFEST_FILE) }))
        .catch((error: unknown) => {
          if (isMissing(error)) throw new Error(`No complete backup ${name} in s3://${bucket}/${folder(name)} (no ${MANIFEST_FILE}).`);
          throw error;
        });
      const manifest = parseManifest(answer.Body ? await answer.Body.transformToString('utf8') : '');
      const downloads = await mkdtemp(join(tmpdir(), 'shop-restore-'));
      const fetched = new Set<string>();
      return {
        location: `s3://${bucket}/${folder(name)}`,
        manifest,
        async localFile(path) {
          const target = join(downloads, path);
          if (!fetched.has(path)) {
            await download(keyOf(name, path), target);
            fetched.add(path);
          }
          return target;
        },
        close: () => rm(downloads, { recursive: true, force: true }),
      };
    },

    async remove(name) {
      // The manifest first: a removal cut off halfway must not leave something that looks complete.
      await deleteS3Keys(client, bucket, [keyOf(name, MANIFEST_FILE)]);
      await removeAll(name);
    },

    async removeAbandoned(before) {
      const removed: string[] = [];
      for (const name of await names()) {
        if (timeOfBackupName(name) >= before || (await hasManifest(name))) continue;
        await removeAll(name);
        removed.push(name);
      }
      return removed;
    },
  };
}
