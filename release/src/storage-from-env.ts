/**
 * Which release storage the environment asks for: with S3_BUCKET, an S3
 * bucket (S3_ENDPOINT for an S3-compatible server, S3_REGION, default
 * eu-central-1, S3_PREFIX for a key prefix; credentials from the SDK's
 * default chain: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an
 * instance role …) with its local cache in `<originDir>/.s3-cache`; without
 * it, the origin directory itself.
 */
import { join } from 'node:path';
import { createS3Client, s3Storage } from './s3-storage.ts';
import { localDirectoryStorage, type ReleaseStorage } from './storage.ts';

export const S3_CACHE_DIR = '.s3-cache';

/** S3's rules for new bucket names: 3–63 lowercase letters, digits, dots and hyphens, not like an IP address. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Key prefix: segments of letters, digits, `.`, `_`, `-`, separated by single slashes. */
const PREFIX = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;
const REGION = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function invalid(name: string, value: string, why: string): never {
  throw new Error(`${name}=${JSON.stringify(value.slice(0, 80))} ${why}.`);
}

/** The bucket settings S3_BUCKET, S3_REGION, S3_PREFIX and S3_ENDPOINT, checked; null without S3_BUCKET. */
export type S3Settings = { bucket: string; region: string; prefix: string; endpoint: string | undefined };

export function s3SettingsFromEnv(env: NodeJS.ProcessEnv): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim() ?? '';
  if (bucket === '') return null;
  if (!BUCKET.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) {
    invalid('S3_BUCKET', bucket, 'is not a valid bucket name (3-63 lowercase letters, digits, dots and hyphens)');
  }

  const region = env.S3_REGION?.trim() || 'eu-central-1';
  if (region.length > 40 || !REGION.test(region)) invalid('S3_REGION', region, 'is not a region name (e.g. eu-central-1)');

  // A trailing slash is forgiven; anything else odd is refused.
  const prefix = (env.S3_PREFIX?.trim() ?? '').replace(/\/$/, '');
  if (
    prefix !== '' &&
    (prefix.length > 200 || !PREFIX.test(prefix) || prefix.split('/').some((segment) => segment === '.' || segment === '..'))
  ) {
    invalid(
      'S3_PREFIX',
      prefix,
      'may hold only letters, digits, ".", "_", "-" and single "/" between names (no leading "/", no "..", at most 200 characters)',
    );
  }

  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint !== undefined) {
    const url = URL.canParse(endpoint) ? new URL(endpoint) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || endpoint.length > 300 || url.username || url.password) {
      invalid('S3_ENDPOINT', endpoint, 'is not an http(s) URL without credentials in it');
    }
  }
  return { bucket, region, prefix, endpoint };
}

/** The S3 client for the settings (path-style addressing with an endpoint: see createS3Client). */
export const s3ClientFor = (settings: S3Settings) =>
  createS3Client({ region: settings.region, ...(settings.endpoint ? { endpoint: settings.endpoint } : {}) });

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
