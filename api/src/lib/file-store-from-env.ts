/**
 * Which file store the environment asks for, read like the release storage's
 * (release/storage-from-env.ts): with S3_BUCKET, the bucket (S3_ENDPOINT for an S3-compatible
 * server, S3_REGION, default eu-central-1; credentials from the SDK's default chain) under the
 * key prefix `<S3_PREFIX>/files/`, beside the releases; without it, the data directory as the
 * API has always laid it out: complaint photos in `<dataDir>/complaints`, invoice copies in
 * `<dataDir>/invoices` (so existing photos are still found).
 */
import { join } from 'node:path';
import { createS3Client } from '../release/s3-storage.ts';
import { assertFileKey, localDataFileStore, type FileStore } from './file-store.ts';
import { s3FileStore } from './s3-file-store.ts';

/** The folder under S3_PREFIX that holds the file store's keys. */
export const S3_FILES_FOLDER = 'files';

function invalid(name: string, value: string, why: string): never {
  throw new Error(`${name}=${JSON.stringify(value.slice(0, 80))} ${why}.`);
}

export function fileStoreFromEnv(env: NodeJS.ProcessEnv, dataDir: string): FileStore {
  const bucket = env.S3_BUCKET?.trim() ?? '';
  if (bucket === '') return localDataFileStore({ complaintsDir: join(dataDir, 'complaints'), invoicesDir: join(dataDir, 'invoices') });
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) invalid('S3_BUCKET', bucket, 'is not a valid bucket name');

  const region = env.S3_REGION?.trim() || 'eu-central-1';
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(region)) invalid('S3_REGION', region, 'is not a region name (e.g. eu-central-1)');

  // As for the releases, a trailing slash is forgiven.
  const prefix = (env.S3_PREFIX?.trim() ?? '').replace(/\/$/, '');
  const filesPrefix = prefix === '' ? S3_FILES_FOLDER : `${prefix}/${S3_FILES_FOLDER}`;
  try {
    assertFileKey(filesPrefix);
  } catch {
    invalid('S3_PREFIX', prefix, 'may hold only letters, digits, ".", "_", "-" and single "/" between names');
  }

  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint !== undefined) {
    const url = URL.canParse(endpoint) ? new URL(endpoint) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
      invalid('S3_ENDPOINT', endpoint, 'is not an http(s) URL without credentials in it');
    }
  }

  return s3FileStore({ client: createS3Client({ region, ...(endpoint ? { endpoint } : {}) }), bucket, prefix: filesPrefix });
}
