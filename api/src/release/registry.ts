/**
 * The release registry `builds/latest.json` on the static origin: which
 * version of the shell and of each area is in force. Moves are atomic
 * (write a new file, then rename) and each one is appended to a history.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const AREAS = ['catalog', 'checkout', 'account', 'content'] as const;
export type AreaName = (typeof AREAS)[number];
export type PartName = AreaName | 'shell';

export type AreaRelease = {
  version: string;
  /** Relative to the origin root, e.g. remotes/catalog/0.1.0-ab12cd34ef/remoteEntry.js */
  entry: string;
  kernel: string;
  exposes: string[];
};

export type ShellRelease = { version: string; dir: string; kernel: string };

export type Registry = {
  revision: string;
  updatedAt: string;
  shell: ShellRelease | null;
  areas: Partial<Record<AreaName, AreaRelease>>;
};

export type HistoryEntry = {
  at: string;
  who: string;
  part: PartName;
  action: 'deploy' | 'rollback';
  from: string | null;
  to: string;
};

export const registryPath = (originDir: string) => join(originDir, 'builds', 'latest.json');
const historyPath = (originDir: string) => join(originDir, 'builds', 'history.jsonl');

export async function readRegistry(originDir: string): Promise<Registry | null> {
  try {
    return JSON.parse(await readFile(registryPath(originDir), 'utf8')) as Registry;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function writeRegistry(originDir: string, registry: Registry): Promise<void> {
  const target = registryPath(originDir);
  await mkdir(join(originDir, 'builds'), { recursive: true });
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(registry, null, 2)}\n`);
  await rename(temporary, target);
}

export async function appendHistory(originDir: string, entry: HistoryEntry): Promise<void> {
  await mkdir(join(originDir, 'builds'), { recursive: true });
  await appendFile(historyPath(originDir), `${JSON.stringify(entry)}\n`);
}

export function emptyRegistry(): Registry {
  return { revision: '0', updatedAt: new Date(0).toISOString(), shell: null, areas: {} };
}
