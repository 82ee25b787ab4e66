/**
 * Registers the areas with the federation runtime and loads their exposed
 * page modules on demand. A failure stays with the area that failed.
 */
import { importAreaModule, registerAreaEntries, type AreaEntry } from './module-source.ts';
import type { ComponentType } from 'react';
import { bus, KERNEL_VERSION } from '@shop/shared-kernel';
import { isContractCompatible } from '@shop/shared-kernel/rules';
import type { AreaName, AreaRelease } from './registry.ts';

export type AreaPageModule = { default: ComponentType };

export class AreaLoadError extends Error {
  constructor(
    readonly area: AreaName,
    readonly module: string,
    readonly reason: 'unavailable' | 'incompatible' | 'unreleased',
    cause?: unknown,
  ) {
    super(`Area ${area} could not load ${module}: ${reason}`, { cause });
    this.name = 'AreaLoadError';
  }
}

const released = new Map<AreaName, { version: string; compatible: boolean }>();
const modules = new Map<string, Promise<AreaPageModule>>();
const failed = new Set<string>();

/** Registers the releases this page load uses (chooseReleases: in force, canary or preview). */
export function registerAreas(releases: Partial<Record<AreaName, AreaRelease>>, assetOrigin: string): void {
  const remotes: AreaEntry[] = [];
  for (const [name, release] of Object.entries(releases) as [AreaName, AreaRelease | undefined][]) {
    if (!release) continue;
    const compatible = isContractCompatible(KERNEL_VERSION, release.kernel);
    released.set(name, { version: release.version, compatible });
    if (!compatible) continue;
    remotes.push({ name, entry: new URL(release.entry, `${assetOrigin}/`).href });
  }
  registerAreaEntries(remotes);
}

export function areaVersion(area: AreaName): string | null {
  return released.get(area)?.version ?? null;
}

const moduleKey = (area: AreaName, module: string) => `${area}/${module.replace(/^\.\//, '')}`;

/**
 * Loads (once) an area's exposed page module. A failed load stays failed, so
 * rendering does not retry in a loop, until `forgetFailedLoad` (the retry button).
 */
export function loadAreaModule(area: AreaName, module: string): Promise<AreaPageModule> {
  const key = moduleKey(area, module);
  const cached = modules.get(key);
  if (cached) return cached;
  const release = released.get(area);
  const loading = !release
    ? Promise.reject(new AreaLoadError(area, module, 'unreleased'))
    : !release.compatible
      ? Promise.reject(new AreaLoadError(area, module, 'incompatible'))
      : importAreaModule<AreaPageModule>(key).then(
          (loaded) => {
            if (!loaded || typeof loaded.default !== 'function') {
              throw new AreaLoadError(area, module, 'unavailable');
            }
            return loaded;
          },
          (error: unknown) => {
            throw new AreaLoadError(area, module, 'unavailable', error);
          },
        );
  modules.set(key, loading);
  loading.catch((error: unknown) => {
    failed.add(key);
    console.error(error, (error as Error).cause);
    bus.emit('area:load-failed', { area, module, error: String(error) });
  });
  return loading;
}

/** Drops a failed load so the next render tries the area again. */
export function forgetFailedLoad(area: AreaName, module: string): void {
  const key = moduleKey(area, module);
  if (failed.delete(key)) modules.delete(key);
}
