/**
 * What every move of the registry shares: its result, pointing a part at a version, ending a
 * running canary, and the refusals a move makes before it changes anything (no registry on the
 * origin, a version marked never to be served again, a version not on the origin or not as its
 * team signed it).
 */
import { readBuild, type PartBuild } from './build-info.ts';
import type { ReleaseIntegrity } from './integrity.ts';
import type { Floor, RegistryBook } from './registry-book.ts';
import { ReleaseRefused } from './refusal.ts';
import { historyEntry, type AreaName, type HistoryEntry, type PartName, type Provenance, type Registry } from './registry.ts';
import { partPrefix } from './release-paths.ts';
import type { ReleaseStorage } from './storage.ts';

export type MoveResult = {
  part: PartName;
  version: string;
  from: string | null;
  changed: boolean;
  /** Why this part was not moved (only with `onlyNew`): pinned, released before, canary running. */
  left?: string;
};

/** An area's entry in the registry for a version of its build. */
export function areaRelease(part: AreaName, version: string, build: PartBuild & { kind: 'area' }) {
  const prefix = partPrefix(part, version);
  return { version, entry: `${prefix}/${build.entry}`, kernel: build.kernel, exposes: build.exposes, routes: build.routes };
}

/** The registry with the part's pointer moved to the version. */
export function pointTo(registry: Registry, part: PartName, version: string, build: PartBuild): Registry {
  if (build.kind === 'shell') return { ...registry, shell: { version, dir: partPrefix(part, version), kernel: build.kernel } };
  return { ...registry, areas: { ...registry.areas, [build.area]: areaRelease(build.area, version, build) } };
}

/** A copy of a record without one key (a pin or a canary that ends). */
export function withoutKey<T extends object>(record: T | undefined, key: string): T {
  const copy = { ...(record ?? {}) } as Record<string, unknown>;
  delete copy[key];
  return copy as T;
}

/** Refuses a move on an origin without a registry (a mistyped DATA_DIR) unless it starts a new one (`init`). */
export async function requireRegistry(storage: ReleaseStorage, book: RegistryBook, init: boolean | undefined): Promise<void> {
  if (init || (await book.exists())) return;
  throw new ReleaseRefused(
    'no_registry',
    `There is no release registry on this origin (${storage.location('builds/latest.json')}). Check DATA_DIR or --origin; to start a new origin, pass --init. Nothing was changed.`,
  );
}

/** Refuses to put a floored version in force (or in a canary, a preview, a pin). */
export function assertNotFloored(floors: readonly Floor[], part: PartName, version: string): void {
  const floor = floors.find((candidate) => candidate.part === part && candidate.version === version);
  if (!floor) return;
  throw new ReleaseRefused(
    'floored',
    `${part} ${version} is marked never to be served again (by ${floor.by}, ${floor.at}${floor.reason ? `: ${floor.reason}` : ''}). Only an operator's audited override lifts that. Nothing was changed.`,
  );
}

/** A version already on the origin, read back for a move: refused when it is not there or its files are not as signed. */
export async function buildOnOrigin(
  storage: ReleaseStorage,
  part: PartName,
  version: string,
  integrity: ReleaseIntegrity | null | undefined,
): Promise<PartBuild> {
  const prefix = partPrefix(part, version);
  if (!(await storage.exists(prefix))) {
    throw new ReleaseRefused('unknown_version', `${part} ${version} is not on the origin (pruned or never released). Nothing was changed.`);
  }
  // A version goes back in force only with the files its team signed.
  await integrity?.requireIntact(part, version);
  return readBuild(await storage.materialize(prefix), part);
}

/** Ends a running canary in `next` and records why (a rollback or an operator's or the watchdog's abort). */
export function endCanary(next: Registry, area: AreaName, at: string, provenance: Provenance, entries: HistoryEntry[]): Registry {
  const canary = next.canaries?.[area];
  if (!canary) return next;
  entries.push(
    historyEntry({ at, part: area, action: 'abort', from: canary.version, to: next.areas[area]?.version ?? canary.version }, provenance),
  );
  return { ...next, canaries: withoutKey(next.canaries, area) };
}
