/**
 * Temporary directories for a test file: every one made here is removed after the file, by the
 * setup file every test file runs (per-file.ts here, server/test/helpers/per-file.ts). Test files share a worker's modules
 * (isolate: false), so this module is evaluated once per worker: a hook registered here would run
 * after the first file only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** Removes every directory made since the last call (after each test file). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A new empty directory under the system's temp directory, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
