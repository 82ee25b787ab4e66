/**
 * The release registry `builds/latest.json`: which version of the shell and
 * of each area is in force (and each area's pages), canaries running, parts
 * pinned by a rollback; and `builds/history.jsonl`: every move, with who,
 * why and from which commit.
 */
import { createHash } from 'node:crypto';
import type { AreaRoute } from '@shop/shared-kernel/contract';
import type { ReleaseStorage } from './storage.ts';

export const AREAS = ['catalog', 'checkout', 'account', 'content'] as const;
export type AreaName = (typeof AREAS)[number];
export type PartName = AreaName | 'shell';
export const PARTS: readonly PartName[] = [...AREAS, 'shell'];

export function isPart(value: string): value is PartName {
  return (PARTS as readonly string[]).includes(value);
}

export function isArea(value: string): value is AreaName {
  return (AREAS as readonly string[]).includes(value);
}

/**
 * A version's name as releases make them (`<package version>-<content hash>`), and as a URL or a
 * preview link may name one: letters, digits, `.`, `+` and `-`, at most 64, no `.` or `..` path step.
 */
export function isVersionName(value: string): boolean {
  return /^[0-9A-Za-z.+-]{1,64}$/.test(value) && value !== '.' && !value.includes('..');
}

export const LAYOUTS = ['default', 'checkout', 'account'] as const;
export type LayoutName = (typeof LAYOUTS)[number];

/** A page an area ships (the kernel contract's AreaRoute): the shell builds its route table from these. */
export type RouteSpec = AreaRoute;

export type AreaRelease = {
  version: string;
  /** Relative to the origin root, e.g. remotes/catalog/0.1.0-ab12cd34ef/remoteEntry.js */
  entry: string;
  kernel: string;
  exposes: string[];
  routes: RouteSpec[];
};

/** A version of an area in force for a share of shoppers (their sticky bucket below `share`). */
export type CanaryRelease = AreaRelease & { share: number; since: string; by: string };

/** A part held at a version: nothing moves it until an operator unpins it or overrides the pin. */
export type Pin = { version: string; by: string; at: string; reason: string | null };

export type ShellRelease = { version: string; dir: string; kernel: string };

export type Registry = {
  revision: string;
  updatedAt: string;
  shell: ShellRelease | null;
  areas: Partial<Record<AreaName, AreaRelease>>;
  canaries?: Partial<Record<AreaName, CanaryRelease>>;
  pins?: Partial<Record<PartName, Pin>>;
};

/** What browsers get from /builds/latest.json: what to load, nothing about who or why. */
export type PublicRegistry = Pick<Registry, 'revision' | 'areas'> & { canaries: Partial<Record<AreaName, Omit<CanaryRelease, 'by' | 'since'>>> };

export type HistoryAction = 'deploy' | 'rollback' | 'publish' | 'canary' | 'promote' | 'abort' | 'pin' | 'unpin';

/** Where a move came from: who made it, why, and the commit it was built from (null: not a build, or unknown). */
export type Provenance = { who: string; reason?: string | null; commit?: string | null; dirty?: boolean | null };

export type HistoryEntry = {
  at: string;
  who: string;
  part: PartName;
  action: HistoryAction;
  from: string | null;
  to: string;
  reason?: string | null;
  commit?: string | null;
  dirty?: boolean | null;
  /** Canary share, percent. */
  share?: number;
};

export const REGISTRY_KEY = 'builds/latest.json';
export const HISTORY_KEY = 'builds/history.jsonl';

export function emptyRegistry(): Registry {
  return { revision: '0', updatedAt: new Date(0).toISOString(), shell: null, areas: {} };
}

export async function registryExists(storage: ReleaseStorage): Promise<boolean> {
  return storage.exists(REGISTRY_KEY);
}

export async function readRegistry(storage: ReleaseStorage): Promise<Registry> {
  const text = await storage.readText(REGISTRY_KEY);
  return text === null ? emptyRegistry() : (JSON.parse(text) as Registry);
}

export function publicRegistry(registry: Registry): PublicRegistry {
  const canaries: PublicRegistry['canaries'] = {};
  for (const [area, canary] of Object.entries(registry.canaries ?? {}) as [AreaName, CanaryRelease][]) {
    const { by: _by, since: _since, ...release } = canary;
    canaries[area] = release;
  }
  return { revision: registry.revision, areas: registry.areas, canaries };
}

export function versionOf(registry: Registry, part: PartName): string | null {
  return part === 'shell' ? (registry.shell?.version ?? null) : (registry.areas[part]?.version ?? null);
}

/** Writes the registry atomically with a new revision (what the shell compares: what shoppers load). */
export async function writeRegistry(storage: ReleaseStorage, registry: Registry): Promise<Registry> {
  const next = { ...registry, updatedAt: new Date().toISOString() };
  next.revision = createHash('sha256')
    .update(JSON.stringify({ shell: next.shell, areas: next.areas, canaries: next.canaries ?? {} }))
    .digest('hex')
    .slice(0, 12);
  await storage.writeTextAtomic(REGISTRY_KEY, `${JSON.stringify(next, null, 2)}\n`);
  return next;
}

export async function appendHistory(storage: ReleaseStorage, entry: HistoryEntry): Promise<void> {
  await storage.appendText(HISTORY_KEY, `${JSON.stringify(entry)}\n`);
}

export function historyEntry(
  base: { at: string; part: PartName; action: HistoryAction; from: string | null; to: string; share?: number },
  provenance: Provenance,
): HistoryEntry {
  return {
    ...base,
    who: provenance.who,
    reason: provenance.reason ?? null,
    commit: provenance.commit ?? null,
    dirty: provenance.dirty ?? null,
  };
}

export async function readHistory(storage: ReleaseStorage): Promise<HistoryEntry[]> {
  const text = (await storage.readText(HISTORY_KEY)) ?? '';
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as HistoryEntry);
}
