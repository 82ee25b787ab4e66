/**
 * The release command (`pnpm release …` at the repository root):
 *   deploy <area|shell|all> [--dist DIR] [--no-build]   build (or take a build), check, upload, move the pointer
 *   rollback <area|shell> [VERSION]                     move the pointer back (previous or named version), no build
 *   status                                              the version in force of every part
 *   history [area|shell]                                every pointer move
 * Global: --origin DIR (default: the server's origin directory, .data/origin).
 * A refusal prints why and exits 2; nothing is changed.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { readServerConfig } from '../config.ts';
import { ReleaseRefused } from './refusal.ts';
import { deploySet, history, rollback, status, type MoveResult, type PartInput } from './releases.ts';
import { AREAS, isPart, type PartName } from './registry.ts';
import { localDirectoryStorage } from './storage.ts';

const root = resolve(import.meta.dirname, '..', '..', '..');
const userDir = process.env.INIT_CWD ?? process.cwd();
const print = (line: string) => process.stdout.write(`[release] ${line}\n`);

type Options = { origin: string; dist: string | null; build: boolean; positional: string[] };

function parse(args: string[]): Options {
  const options: Options = { origin: readServerConfig(process.env).originDir, dist: null, build: true, positional: [] };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--origin') options.origin = resolve(userDir, args[++index] ?? '');
    else if (arg === '--dist') options.dist = resolve(userDir, args[++index] ?? '');
    else if (arg === '--no-build') options.build = false;
    else if (arg.startsWith('--')) throw new Error(`Unknown option ${arg}`);
    else options.positional.push(arg);
  }
  return options;
}

const partDir = (part: PartName) => join(root, part === 'shell' ? 'shell' : `mf-${part}`);

async function partPackage(part: PartName): Promise<{ version: string; shop?: { jsBudgetKb?: number } }> {
  return JSON.parse(await readFile(join(partDir(part), 'package.json'), 'utf8'));
}

function describe(result: MoveResult): string {
  return result.changed ? `${result.part} → ${result.version} (was ${result.from ?? 'none'})` : `${result.part} ${result.version} already in force`;
}

function build(part: PartName): void {
  print(`building ${part}…`);
  const built = spawnSync('pnpm', ['--filter', `./${part === 'shell' ? 'shell' : `mf-${part}`}`, 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new ReleaseRefused('broken_build', `The ${part} build failed. Nothing was changed.`);
}

async function partInput(part: PartName, dist: string | null): Promise<PartInput> {
  const pkg = await partPackage(part);
  return {
    part,
    distDir: dist ?? join(partDir(part), 'dist'),
    packageVersion: pkg.version,
    budgetBytes: pkg.shop?.jsBudgetKb ? pkg.shop.jsBudgetKb * 1024 : null,
  };
}

function requirePart(value: string | undefined): PartName {
  if (!value || !isPart(value)) throw new Error(`Name a part: ${[...AREAS, 'shell'].join(', ')}`);
  return value;
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const options = parse(rest);
  const storage = localDirectoryStorage(options.origin);
  switch (command) {
    case 'deploy': {
      const target = options.positional[0];
            // `all` releases every part as one set, checked together and moved in one registry write.
      const parts = target === 'all' ? ([...AREAS, 'shell'] as PartName[]) : [requirePart(target)];
      if (target === 'all' && options.dist) throw new Error('--dist names one part’s build');
      if (options.build && !options.dist) parts.forEach(build);
      const inputs = await Promise.all(parts.map((part) => partInput(part, options.dist)));
      const who = process.env.RELEASE_USER ?? userInfo().username;
      for (const result of await deploySet({ storage, parts: inputs, who })) print(describe(result));
      return;
    }
    case 'rollback': {
      const part = requirePart(options.positional[0]);
      const who = process.env.RELEASE_USER ?? userInfo().username;
      print(describe(await rollback({ storage, part, to: options.positional[1] ?? null, who })));
      return;
    }
    case 'status': {
      const { revision, parts } = await status(storage);
      print(`registry revision ${revision}`);
      for (const part of parts) {
        print(`${part.part.padEnd(9)} ${(part.version ?? '—').padEnd(20)} ${part.since ?? ''} ${part.by ?? ''} (kept: ${part.versionsKept.length})`);
      }
      return;
    }
    case 'history': {
      const part = options.positional[0] ? requirePart(options.positional[0]) : undefined;
      for (const entry of await history(storage, part)) {
        print(`${entry.at} ${entry.who.padEnd(10)} ${entry.action.padEnd(8)} ${entry.part.padEnd(9)} ${entry.from ?? 'none'} → ${entry.to}`);
      }
      return;
    }
    default:
      throw new Error('Usage: release <deploy|rollback|status|history> [part] [--dist DIR] [--no-build] [--origin DIR]');
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ReleaseRefused) {
    process.stderr.write(`[release] refused (${error.code}): ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`[release] ${(error as Error).message}\n`);
  process.exit(1);
});
