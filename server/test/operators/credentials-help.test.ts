/**
 * `npm run credentials -- --help` (and `<command> --help`) explains every command with an example
 * and exits 0 without opening the database; an unknown command gets the help on stderr. The command
 * itself runs twice (its help and an unknown command); each command's help is checked in-process.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpAsked } from '../../src/domains/operators/credentials-help.ts';

const COMMANDS = [
  'create',
  'revoke',
  'key-revoke',
  'list',
  'operator-create',
  'operator-revoke',
  'operator-list',
  'sessions-revoke',
  'operator-totp-reset',
  'metrics-create',
  'metrics-revoke',
  'metrics-list',
  'audit-verify',
  'shop-key-create',
  'floor',
];

function credentials(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A data directory that does not exist: help must not need (or make) a database.
    const env = { ...process.env, DATA_DIR: join(import.meta.dirname, 'no-such-data-dir'), DATABASE_URL: '' };
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/domains/operators/credentials-cli.ts', ...args],
      { cwd: join(import.meta.dirname, '..', '..'), env },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('credentials --help', () => {
  it('lists every command with an example and exits 0', { timeout: 60_000 }, async () => {
    const run = await credentials(['--help']);
    expect(run.code).toBe(0);
    for (const command of COMMANDS)
      expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b.*\\n +e\\.g\\. .*npm run credentials -- ${command}\\b`, 'm'));
  });

  it.each(COMMANDS)('explains `%s --help` and exits 0', (command) => {
    for (const args of [
      [command, '--help'],
      [command, '-h'],
      ['help', command],
    ]) {
      const asked = helpAsked(args);
      expect(asked?.code, args.join(' ')).toBe(0);
      expect(asked?.text).toContain(`Usage: npm run credentials -- ${command}`);
      expect(asked?.text).toContain('e.g. ');
    }
    // Without --help the command runs.
    expect(helpAsked([command, 'x'])).toBeNull();
  });

  it('prints the help on stderr for an unknown command', { timeout: 60_000 }, async () => {
    const run = await credentials(['bogus']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown command bogus');
    for (const command of COMMANDS) expect(run.stderr).toContain(`  ${command}`);
  });
});
