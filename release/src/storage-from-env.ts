/**
 * Which release storage the environment asks for: with S3_BUCKET, an S3
 * bucket (the S3_* settings as @shop/s3 reads and checks them; credentials
 * from the SDK's default chain) with its local cache in
 * `<originDir>/.s3-cache`; without it, the origin directory itself.
 */
import { join } from 'node:path';
import { s3ClientFor, s3SettingsFromEnv } from '@shop/s3';
import { s3Storage } from './s3-storage.ts';
import { localDirectoryStorage, type ReleaseStorage } from './storage.ts';

export const S3_CACHE_DIR = '.s3-cache';

export function storageFromEnv(env: NodeJS.ProcessEnv, originDir: string): ReleaseStorage {
  const settings = s3SettingsFromEnv(env);
  if (!settings) return localDirectoryStorage(originDir);
  return s3Storage({
    client: s3ClientFor(settings),
    bucket: settings.bucket,
    prefix: settings.prefix,
    cacheDir: join(originDir, S3_CACHE_DIR),
  });
}
