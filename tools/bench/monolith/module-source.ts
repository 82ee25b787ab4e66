/**
 * The monolith's module source: every area page is part of the one build,
 * imported lazily by Vite, with no federation runtime. Replaces
 * shell/src/areas/module-source.ts in the benchmark's monolith build only.
 */
// @ts-expect-error A virtual module of vite.config.ts.
import { areaModules } from 'virtual:monolith-areas';

export type AreaEntry = { name: string; entry: string };

export function registerAreaEntries(_areas: AreaEntry[]): void {}

export function moveAreaEntry(_area: AreaEntry): void {}

export function importAreaModule<T>(key: string): Promise<T | null> {
  const load = (areaModules as Record<string, () => Promise<T>>)[key];
  return load ? load() : Promise.resolve(null);
}
