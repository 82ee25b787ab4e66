/**
 * Where backups go: a directory (directory-destination.ts) or an S3 key prefix
 * (s3-destination.ts). A backup is written under a name nobody reads as a backup and becomes one
 * only when `complete` has written its manifest (and, in a directory, renamed it into place), so a
 * backup cut off halfway never looks complete: `list` and `open` skip it, and `removeAbandoned`
 * clears it later.
 */
import type { Manifest } from './manifest.ts';

export type BackupWriter = {
  /** A local path to write the backup's file `path` to (parent folders made); then `add` it. */
  stage(path: string): Promise<string>;
  /** Takes the staged file into the backup (durably: synced to disk, or uploaded). */
  add(path: string): Promise<void>;
  /** Writes the manifest and makes the backup complete. */
  complete(manifest: Manifest): Promise<void>;
  /** Removes what was written so far. */
  abort(): Promise<void>;
};

export type BackupReader = {
  /** Where the backup is read from, for messages. */
  location: string;
  manifest: Manifest;
  /** A local path holding the backup's file `path` (downloaded first from S3). */
  localFile(path: string): Promise<string>;
  /** Removes the downloads. */
  close(): Promise<void>;
};

export type BackupDestination = {
  describe(): string;
  /** Starts the backup `name` (refused when one of that name exists). */
  begin(name: string): Promise<BackupWriter>;
  /** The complete backups' names, oldest first. */
  list(): Promise<string[]>;
  /** Opens a complete backup; throws when there is none of that name or it is incomplete. */
  open(name: string): Promise<BackupReader>;
  remove(name: string): Promise<void>;
  /** Removes incomplete backups started before `before` (a crashed or failed run's leftovers); answers their names. */
  removeAbandoned(before: number): Promise<string[]>;
};

/** How long an incomplete backup may be in progress before it counts as abandoned. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60_000;

/** Keeps the `keep` newest complete backups and removes older ones and abandoned halves; answers what it removed. */
export async function pruneBackups(destination: BackupDestination, keep: number, now: number): Promise<string[]> {
  const names = await destination.list();
  const old = names.slice(0, Math.max(0, names.length - Math.max(1, keep)));
  for (const name of old) await destination.remove(name);
  const abandoned = await destination.removeAbandoned(now - ABANDONED_AFTER_MS);
  return [...old, ...abandoned];
}
