/**
 * The shop's S3 client pieces, for the release storage (@shop/release), the file store and the
 * backups (@shop/server): one client, one reading of the S3_* settings, one way to list and delete
 * many keys, one reading of S3's errors.
 */
export * from './client.ts';
export * from './each-limited.ts';
export * from './errors.ts';
export * from './list.ts';
export * from './settings.ts';
