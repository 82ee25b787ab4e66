/**
 * Where the areas' page modules come from: the Module Federation runtime,
 * which loads each area from its own origin. (The benchmark's monolith build
 * replaces this one file with direct imports, to measure what composition costs.)
 */
import { loadRemote, registerRemotes } from '@module-federation/runtime';

export type AreaEntry = { name: string; entry: string };

export function registerAreaEntries(areas: AreaEntry[]): void {
  registerRemotes(areas.map((area) => ({ ...area, type: 'module' as const })));
}

/**
 * Loads an area from another address of the same released files (the shop's own origin in place of
 * the asset origin): the runtime forgets the area's entry, and its next module comes from there.
 */
export function moveAreaEntry(area: AreaEntry): void {
  registerRemotes([{ ...area, type: 'module' as const }], { force: true });
}

/** `key` is '<area>/<ExposedName>'. */
export function importAreaModule<T>(key: string): Promise<T | null> {
  return loadRemote<T>(key).then((loaded) => loaded ?? null);
}
