/**
 * The release tool as a library, for the shop's server (server/) and the release command alike: the
 * registry and its history, the moves (deploy, rollback, pins, canaries, previews, retention), the
 * checks, signing and integrity, the storage (a directory or an S3 bucket), the lock and uploads.
 * No database and no API here: what needs the shop's database (credentials, accepted keys, signed
 * uploads, the integrity watch) is in server/src/domains/releases/, the operators in
 * server/src/domains/operators/. The command itself is ./cli.ts (bundled to server/dist/release/cli.js).
 * The S3 client, the S3_* settings and listing are @shop/s3's (tools/s3), shared with the server.
 */
export * from './build-info.ts';
export * from './canary-speed.ts';
export * from './canary-finish.ts';
export * from './canary-stages.ts';
export * from './canary-watch.ts';
export * from './checks.ts';
export * from './deploy.ts';
export * from './integrity.ts';
export * from './local-override.ts';
export * from './lock.ts';
export * from './pins.ts';
export * from './preview.ts';
export * from './prune.ts';
export * from './refusal.ts';
export * from './registry.ts';
export * from './registry-book.ts';
export { assertNotFloored, type MoveResult } from './registry-moves.ts';
export * from './move-request.ts';
export * from './override-command.ts';
export * from './release-paths.ts';
export * from './rollback.ts';
export * from './rollback-target.ts';
export * from './route-specs.ts';
export { assertKey, contentHeaders } from './s3-keys.ts';
export type { ConditionalSupport } from './s3-conditional-writes.ts';
export * from './s3-storage.ts';
export * from './shop-key.ts';
export * from './shared-versions.ts';
export * from './shop-places.ts';
export * from './signing.ts';
export * from './status.ts';
export * from './storage-from-env.ts';
export * from './storage.ts';
export * from './upload-bundle.ts';
export * from './upload-client.ts';
export * from './upload-version.ts';
