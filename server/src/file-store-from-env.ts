/**
 * Which file store the environment asks for, read like the release storage's
 * (@shop/release's storage-from-env.ts): with S3_BUCKET, the bucket (S3_ENDPOINT for an S3-compatible
 * server, S3_REGION, default eu-central-1; credentials from the SDK's default chain) under the
 * key prefix `<S3_PREFIX>/files/`, beside the releases; without it, the data directory as the
 * API has always laid it out: complaint photos in `<dataDir>/complaints`, invoice copies in
 * `<dataDir>/invoices` (so existing photos are still found).
 */
import { join } from 'node:path';
import { s3ClientFor, s3SettingsFromEnv } from '@shop/s3';
import { localDataFileStore, type FileStore } from './infra/storage/file-store.ts';
import { s3FileStore } from './infra/storage/s3-file-store.ts';

/** The folder under S3_PREFIX that holds the file store's keys. */
export const S3_FILES_FOLDER = 'files';

export function fileStoreFromEnv(env: NodeJS.ProcessEnv, dataDir: string): FileStore {
  const settings = s3SettingsFromEnv(env);
  if (!settings) return localDataFileStore({ complaintsDir: join(dataDir, 'complaints'), invoicesDir: join(dataDir, 'invoices') });
  const prefix = settings.prefix === '' ? S3_FILES_FOLDER : `${settings.prefix}/${S3_FILES_FOLDER}`;
  return s3FileStore({ client: s3ClientFor(settings), bucket: settings.bucket, prefix });
}
