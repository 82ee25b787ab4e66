/**
 * Release command line. For now: `publish` puts the current builds of the
 * shell and every area on the origin and moves their pointers.
 *   tsx src/release/cli.ts publish [--origin DIR] [part ...]
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { publishArea, publishShell } from './publish.ts';
import { AREAS, type PartName } from './registry.ts';
import { readServerConfig } from '../config.ts';

const root = resolve(import.meta.dirname, '..', '..', '..');

async function packageVersion(dir: string): Promise<string> {
  return (JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

async function publish(originDir: string, parts: PartName[]) {
  const who = process.env.RELEASE_USER ?? userInfo().username;
  const kernel = await packageVersion(join(root, 'shared-kernel'));
  for (const part of parts) {
    const dir = join(root, part === 'shell' ? 'shell' : `mf-${part}`);
    const options = { originDir, distDir: join(dir, 'dist'), packageVersion: await packageVersion(dir), who };
    const result = part === 'shell' ? await publishShell({ ...options, kernel }) : await publishArea(options);
    process.stdout.write(`[release] ${result.part} ${result.version}${result.changed ? ` (was ${result.from ?? 'none'})` : ' (unchanged)'}\n`);
  }
}

function parseArgs(args: string[]): { originDir: string; parts: PartName[] } {
  let originDir = readServerConfig(process.env).originDir;
  const parts: PartName[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '--origin') {
      originDir = resolve(args[++index] ?? '');
    } else if (arg === 'shell' || (AREAS as readonly string[]).includes(arg)) {
      parts.push(arg as PartName);
    } else {
      throw new Error(`Unknown part: ${arg}`);
    }
  }
  return { originDir, parts: parts.length ? parts : [...AREAS, 'shell'] };
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command !== 'publish') throw new Error('Usage: release publish [--origin DIR] [shell|catalog|checkout|account|content ...]');
  const { originDir, parts } = parseArgs(rest);
  return publish(originDir, parts);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`[release] ${(error as Error).message}\n`);
  process.exit(1);
});
