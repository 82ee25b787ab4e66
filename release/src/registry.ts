/**
 * The release registry `builds/latest.json`: which version of the shell and
 * of each area is in force (and each area's pages), canaries running, parts
 * pinned by a rollback; and `builds/history.jsonl`: every move, with who,
 * why and from which commit.
 */
import {
  REGISTRY_PATH,
  type AreaName,
  type AreaRoute,
  type CanaryRelease,
  type PartName,
  type PublicRegistry,
  type Registry,
  type ReleaseAction,
  type ReleaseMove,
} from '@shop/shared-kernel/contract';
import type { ReleaseStorage } from './storage.ts';

// The parts, the layouts and the registry's shape are the kernel contract's (the shell reads the same registry).
export { AREAS, PARTS, LAYOUTS, isArea, isPart, partFolder } from '@shop/shared-kernel/contract';
export type {
  AreaName,
  PartName,
  LayoutName,
  AreaRelease,
  CanaryRelease,
  CanaryStages,
  Pin,
  ShellRelease,
  Registry,
  PublicRegistry,
} from '@shop/shared-kernel/contract';

/**
 * A version's name as releases make them (`<package version>-<content hash>`), and as a URL or a
 * preview link may name one: letters, digits, `.`, `+` and `-`, at most 64, no `.` or `..` path step.
 */
export function isVersionName(value: string): boolean {
  return /^[0-9A-Za-z.+-]{1,64}$/.test(value) && value !== '.' && !value.includes('..');
}

/** A page an area ships (the kernel contract's AreaRoute): the shell builds its route table from these. */
export type RouteSpec = AreaRoute;

export type HistoryAction = ReleaseAction;

/** Where a move came from: who made it, why, and the commit it was built from (null: not a build, or unknown). */
export type Provenance = { who: string; reason?: string | null; commit?: string | null; dirty?: boolean | null };

/** One line of the history: the contract's ReleaseMove, what the operator's console shows. */
export type HistoryEntry = ReleaseMove;

export const REGISTRY_KEY = REGISTRY_PATH.slice(1);
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
    const { by: _by, since: _since, stages: _stages, ...release } = canary;
    canaries[area] = release;
  }
  return { revision: registry.revision, areas: registry.areas, canaries };
}

export function versionOf(registry: Registry, part: PartName): string | null {
  return part === 'shell' ? (registry.shell?.version ?? null) : (registry.areas[part]?.version ?? null);
}

/** The revision after `revision`: a whole number that only grows (an older origin's hash counts as 0). */
export function nextRevision(revision: string): string {
  return String((/^\d{1,15}$/.test(revision) ? Number(revision) : 0) + 1);
}

/** The registry file's text as the origin keeps it (the server's export writes the same). */
export const registryText = (registry: Registry): string => `${JSON.stringify(registry, null, 2)}\n`;
/** The history file's text: one move a line. */
export const historyText = (entries: readonly HistoryEntry[]): string => entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');

/** Writes the registry atomically with the next revision (what the shell compares: what shoppers load). */
export async function writeRegistry(storage: ReleaseStorage, registry: Registry): Promise<Registry> {
  const next = { ...registry, revision: nextRevision(registry.revision), updatedAt: new Date().toISOString() };
  await storage.writeTextAtomic(REGISTRY_KEY, registryText(next));
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
