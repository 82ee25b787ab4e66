/**
 * The release registry `builds/latest.json`: which version of the shell and
 * of each area is in force, and `builds/history.jsonl`: every pointer move.
 */
import { createHash } from 'node:crypto';
import type { ReleaseStorage } from './storage.ts';

export const AREAS = ['catalog', 'checkout', 'account', 'content'] as const;
export type AreaName = (typeof AREAS)[number];
export type PartName = AreaName | 'shell';
export const PARTS: readonly PartName[] = [...AREAS, 'shell'];

export function isPart(value: string): value is PartName {
  return (PARTS as readonly string[]).includes(value);
}

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

export const REGISTRY_KEY = 'builds/latest.json';
export const HISTORY_KEY = 'builds/history.jsonl';

export function emptyRegistry(): Registry {
  return { revision: '0', updatedAt: new Date(0).toISOString(), shell: null, areas: {} };
}

export async function readRegistry(storage: ReleaseStorage): Promise<Registry> {
  const text = await storage.readText(REGISTRY_KEY);
  return text === null ? emptyRegistry() : (JSON.parse(text) as Registry);
}

export function versionOf(registry: Registry, part: PartName): string | null {
  return part === 'shell' ? (registry.shell?.version ?? null) : (registry.areas[part]?.version ?? null);
}

/** Writes the registry atomically with a new revision (what the shell compares). */
export async function writeRegistry(storage: ReleaseStorage, registry: Registry): Promise<Registry> {
  const next = { ...registry, updatedAt: new Date().toISOString() };
  next.revision = createHash('sha256')
    .update(JSON.stringify({ shell: next.shell, areas: next.areas }))
    .digest('hex')
    .slice(0, 12);
  await storage.writeTextAtomic(REGISTRY_KEY, `${JSON.stringify(next, null, 2)}\n`);
  return next;
}

export async function appendHistory(storage: ReleaseStorage, entry: HistoryEntry): Promise<void> {
  await storage.appendText(HISTORY_KEY, `${JSON.stringify(entry)}\n`);
}

export async function readHistory(storage: ReleaseStorage): Promise<HistoryEntry[]> {
  const text = (await storage.readText(HISTORY_KEY)) ?? '';
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as HistoryEntry);
}
