/**
 * The bucket settings one S3_BUCKET names for the whole shop (the release storage, the file store
 * and the backups each keep their keys under their own prefix in it): S3_BUCKET, S3_REGION (default
 * eu-central-1), S3_PREFIX (a key prefix) and S3_ENDPOINT (an S3-compatible server), checked before
 * any request. Credentials come from the SDK's default chain (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, an instance role …), never from these settings.
 */

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
