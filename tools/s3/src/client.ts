/** The S3 client every user of the bucket makes: the release storage, the file store, the backups. */
import { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from './settings.ts';

/**
 * A client. An `endpoint` means an S3-compatible server (path-style addressing, and checksums only
 * where the API requires them: s3rver stores the SDK's default aws-chunked framing of a streamed
 * upload as the object's bytes). Without credentials the SDK's default chain is used (AWS_ACCESS_KEY_ID, …).
 */
export function createS3Client(options: {
  region: string;
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}): S3Client {
  // The shop runs on Node 20 by decision (docs/decisions/0009-node-20.md): the SDK's notice that its
  // releases from 2027 need Node 22 would otherwise be printed by every command that opens the bucket.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: options.region,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.endpoint
      ? {
          endpoint: options.endpoint,
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }
      : {}),
  });
}

/** The client for checked settings (s3SettingsFromEnv), credentials from the SDK's default chain. */
export const s3ClientFor = (settings: S3Settings): S3Client =>
  createS3Client({ region: settings.region, ...(settings.endpoint ? { endpoint: settings.endpoint } : {}) });
