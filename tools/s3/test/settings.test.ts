/**
 * The S3_* settings as every user of the bucket reads them (the release storage, the file store,
 * the backups): what is accepted, the defaults, and what is refused before any request.
 */
import { describe, expect, it } from 'vitest';
import { s3SettingsFromEnv } from '../src/settings.ts';

describe('S3 settings from the environment', () => {
  it('are none without S3_BUCKET (or with a blank one)', () => {
    expect(s3SettingsFromEnv({})).toBeNull();
    expect(s3SettingsFromEnv({ S3_BUCKET: ' ' })).toBeNull();
  });

  it('default the region, forgive a trailing slash on the prefix and trim', () => {
    expect(s3SettingsFromEnv({ S3_BUCKET: ' shop-releases ', S3_PREFIX: 'prod/releases/' })).toEqual({
      bucket: 'shop-releases',
      region: 'eu-central-1',
      prefix: 'prod/releases',
      endpoint: undefined,
    });
    expect(
      s3SettingsFromEnv({ S3_BUCKET: 'shop.files', S3_REGION: 'us-east-1', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_PREFIX: '' }),
    ).toEqual({ bucket: 'shop.files', region: 'us-east-1', prefix: '', endpoint: 'http://127.0.0.1:9000' });
  });

  it('refuse a bad bucket, prefix, region or endpoint', () => {
    for (const S3_BUCKET of ['Shop', 'ab', 'a'.repeat(64), 'shop..releases', '-shop', 'shop_releases', '192.168.1.1', 'shop/x']) {
      expect(() => s3SettingsFromEnv({ S3_BUCKET }), S3_BUCKET).toThrow(/S3_BUCKET/);
    }
    for (const S3_PREFIX of ['/abs', '../up', 'a/../b', 'a//b', 'a b', 'x'.repeat(201), 'ä']) {
      expect(() => s3SettingsFromEnv({ S3_BUCKET: 'shop', S3_PREFIX }), S3_PREFIX).toThrow(/S3_PREFIX/);
    }
    expect(() => s3SettingsFromEnv({ S3_BUCKET: 'shop', S3_REGION: 'EU Central' })).toThrow(/S3_REGION/);
    for (const S3_ENDPOINT of ['localhost:9000', 'ftp://host', 'http://user:secret@host']) {
      expect(() => s3SettingsFromEnv({ S3_BUCKET: 'shop', S3_ENDPOINT }), S3_ENDPOINT).toThrow(/S3_ENDPOINT/);
    }
  });

  it('quote at most 80 characters of a refused value', () => {
    expect(() => s3SettingsFromEnv({ S3_BUCKET: 'shop', S3_PREFIX: `${'x'.repeat(300)} ` })).toThrow(
      new RegExp(`^S3_PREFIX="x{80}" may hold only`),
    );
  });
});
