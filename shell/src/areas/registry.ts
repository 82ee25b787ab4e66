/**
 * The release registry `builds/latest.json`: which version of each area is
 * in force and where its entry lives. Fetched at boot, never from a cache.
 */
export const AREA_NAMES = ['catalog', 'checkout', 'account', 'content'] as const;
export type AreaName = (typeof AREA_NAMES)[number];

export type AreaRelease = {
  version: string;
  /** Path of the area's remote entry, relative to the asset origin. */
  entry: string;
  /** Kernel version the area was built against (its contract). */
  kernel: string;
  exposes: string[];
};

export type Registry = {
  /** Changes with every pointer move; the shell compares it to detect a new build. */
  revision: string;
  areas: Partial<Record<AreaName, AreaRelease>>;
};

export const REGISTRY_URL = '/builds/latest.json';

export async function fetchRegistry(): Promise<Registry> {
  const response = await fetch(REGISTRY_URL, { cache: 'no-store' });
  if (!response.ok) throw new Error(`Registry answered ${response.status}`);
  const registry = (await response.json()) as Registry;
  if (typeof registry !== 'object' || registry === null || typeof registry.areas !== 'object') {
    throw new Error('Registry has no areas');
  }
  return registry;
}
