/**
 * `pnpm release --help` and `pnpm release <command> --help` explain the command: they answer on
 * stdout and exit 0, list every command with an example, and every option of a command with an
 * example each; no command or an unknown one prints the overview on stderr and exits 1.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, helpAsked } from '../src/cli-help.ts';

const here = join(import.meta.dirname, '..');

type Run = { code: number; stdout: string; stderr: string };

/** The command as `pnpm release` runs it, from its TypeScript source. */
function release(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args],
      { cwd: here, env: { ...process.env, S3_BUCKET: '' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The option lines of a help text: `  --flag …` followed by its `e.g.` line. */
function options(text: string): { flag: string; example: string | undefined }[] {
  const lines = text.split('\n');
  return lines.flatMap((line, index) =>
    /^ {2}--/.test(line) ? [{ flag: line.trim().split(/\s+/)[0]!, example: lines[index + 1]?.trim() }] : [],
  );
}

describe('release --help', () => {
  it('lists every command with an example, every option with one, and exits 0', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const run = await release(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stderr).toBe('');
      for (const command of COMMAND_NAMES)
        expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b.*\\n +e\\.g\\. pnpm release ${command}\\b`, 'm'));
      const listed = options(run.stdout).map((option) => option.flag);
      expect(listed).toEqual(
        expect.arrayContaining([
          '--dist',
          '--no-build',
          '--canary',
          '--stages',
          '--stage-min',
          '--auto-promote',
          '--preview',
          '--override-pin',
          '--only-new',
          '--init',
          '--server',
          '--origin',
          '--reason',
          '--no-wait',
          '--help,',
        ]),
      );
      for (const option of options(run.stdout)) expect(option.example, option.flag).toMatch(/^e\.g\. .*pnpm release /);
    }
  });

  it('explains each command on its own (`<command> --help`, `help <command>`) and exits 0', async () => {
    // Every command's help as the command reads its arguments (in-process: one start of the CLI per
    // command would spend seconds on nothing but starting), and one through the real command.
    for (const command of COMMAND_NAMES) {
      for (const args of [
        [command, '--help'],
        ['help', command],
      ]) {
        const help = helpAsked(args);
        expect(help?.ok, args.join(' ')).toBe(true);
        expect(help!.text).toContain(`Usage: pnpm release ${command}`);
        expect(help!.text).toMatch(new RegExp(`Examples:\\n  pnpm release ${command}\\b`));
        for (const option of options(help!.text)) expect(option.example, `${command} ${option.flag}`).toMatch(/^e\.g\. /);
      }
    }
    const deploy = await release(['deploy', '--help']);
    expect(deploy.code).toBe(0);
    expect(deploy.stdout).toBe(helpAsked(['deploy', '--help'])!.text);
    expect(options(deploy.stdout).map((option) => option.flag)).toContain('--canary');
  });

  it('prints the overview on stderr and exits 1 for no command or an unknown one', async () => {
    const [none, unknown, unknownHelp] = await Promise.all([release([]), release(['deplyo', 'checkout']), release(['help', 'deplyo'])]);
    for (const run of [none, unknown, unknownHelp]) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      for (const command of COMMAND_NAMES) expect(run.stderr).toContain(`  ${command}`);
    }
    expect(unknown.stderr).toContain('Unknown command deplyo');
  });
});
