/**
 * Backup settings from the environment: where backups go (BACKUP_DIR, default
 * `<DATA_DIR>/backups`, or BACKUP_S3_PREFIX in the bucket S3_BUCKET, reached as the file store and
 * the releases reach it), how many are kept (BACKUP_KEEP) and how often the worker takes one
 * (BACKUP_INTERVAL_MS, `0`: never by itself).
 */
import { join, resolve } from 'node:path';
import { s3ClientFor, s3SettingsFromEnv } from '@shop/s3';
import type { BackupDestination } from './destination.ts';
import { directoryDestination } from './directory-destination.ts';
import { s3Destination } from './s3-destination.ts';

export type BackupSettings = {
  /** BACKUP_DIR (resolved), or null when backups go to S3. */
  dir: string | null;
  /** BACKUP_S3_PREFIX, or null when backups go to a directory. */
  s3Prefix: string | null;
  keep: number;
  /** 0: no scheduled backups. */
  intervalMs: number;
};

export const DEFAULT_BACKUP_KEEP = 7;
export const DEFAULT_BACKUP_INTERVAL_MS = 6 * 60 * 60_000;

const PREFIX = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

function wholeNumber(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < min)
    throw new Error(`${name}=${JSON.stringify(value.slice(0, 40))} is not a whole number of at least ${min}.`);
  return parsed;
}

export function readBackupSettings(env: NodeJS.ProcessEnv, dataDir: string): BackupSettings {
  const s3Prefix = env.BACKUP_S3_PREFIX?.trim().replace(/\/+$/, '') || null;
  const dir = env.BACKUP_DIR?.trim() || null;
  if (s3Prefix && dir) throw new Error('Set BACKUP_DIR or BACKUP_S3_PREFIX, not both.');
  if (
    s3Prefix &&
    (!PREFIX.test(s3Prefix) || s3Prefix.length > 200 || s3Prefix.split('/').some((segment) => segment === '.' || segment === '..'))
  ) {
    throw new Error(
      `BACKUP_S3_PREFIX=${JSON.stringify(s3Prefix.slice(0, 80))} may hold only letters, digits, ".", "_", "-" and single "/" between names.`,
    );
  }
  return {
    dir: s3Prefix ? null : resolve(dir ?? join(dataDir, 'backups')),
    s3Prefix,
    keep: wholeNumber('BACKUP_KEEP', env.BACKUP_KEEP, DEFAULT_BACKUP_KEEP, 1),
    intervalMs: wholeNumber('BACKUP_INTERVAL_MS', env.BACKUP_INTERVAL_MS, DEFAULT_BACKUP_INTERVAL_MS, 0),
  };
}

/** The destination the settings name; BACKUP_S3_PREFIX needs S3_BUCKET (and its S3_* settings). */
export function destinationFromSettings(settings: BackupSettings, env: NodeJS.ProcessEnv): BackupDestination {
  if (settings.dir !== null) return directoryDestination(settings.dir);
  const s3 = s3SettingsFromEnv(env);
  if (!s3) throw new Error('BACKUP_S3_PREFIX needs S3_BUCKET: the bucket the backups go to.');
  return s3Destination({ client: s3ClientFor(s3), bucket: s3.bucket, prefix: settings.s3Prefix ?? '' });
}
