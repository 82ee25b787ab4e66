/**
 * The release command as a team runs it against the e2e shop's origin (`server/dist/release/cli.js`):
 * a real, signed registry move that the running server applies, never a hand-written registry file.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { E2E_DATA_DIR } from '../playwright.config.ts';

export const repo = join(import.meta.dirname, '..', '..');
export const origin = join(E2E_DATA_DIR, 'origin');

/** Runs `release <args> --origin <origin>`; fails the test unless it exits with `expectedStatus`. Answers its output. */
export function release(args: string[], expectedStatus = 0, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(process.execPath, ['dist/release/cli.js', ...args, '--origin', origin], {
    cwd: join(repo, 'server'),
    encoding: 'utf8',
    env: { ...process.env, RELEASE_USER: 'e2e', ...env },
  });
  expect(result.status, `${args.join(' ')}: ${result.stderr}${result.stdout}`).toBe(expectedStatus);
  return `${result.stdout}${result.stderr}`;
}
