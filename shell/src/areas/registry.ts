/**
 * The release registry `builds/latest.json`: which version of each area is in
 * force, where its entry lives and which pages it ships; canaries and their
 * share of shoppers. Injected into index.html, fetched to compare revisions.
 */
import { REGISTRY_PATH, type AreaName, type AreaRelease, type PublicRegistry } from '@shop/shared-kernel/contract';
import { chooseReleases as chooseCanaryReleases } from '@shop/shared-kernel/rules';

// The registry's shape and the area names are the kernel contract's (the release tool writes what the shell reads).
export type { AreaName, AreaRelease } from '@shop/shared-kernel/contract';

/** What the shell reads: the public registry (a registry without canaries has none running). */
export type Registry = Pick<PublicRegistry, 'revision' | 'areas'> & Partial<Pick<PublicRegistry, 'canaries'>>;

export async function fetchRegistry(): Promise<Registry> {
  // eslint-disable-next-line no-restricted-globals -- the public release registry (/builds), a static file, not /api
  const response = await fetch(REGISTRY_PATH, { cache: 'no-store' });
  if (!response.ok) throw new Error(`Registry answered ${response.status}`);
  const registry = (await response.json()) as Registry;
  if (typeof registry !== 'object' || registry === null || typeof registry.areas !== 'object') {
    throw new Error('Registry has no areas');
  }
  return registry;
}

/**
 * The release of each area this page load uses: the canary when this browser's
 * bucket (0–99) is below its share, else the one in force. Chosen once per
 * page load, so a shopper never mixes two versions of one area.
 */
export function chooseReleases(registry: Registry, bucket: number): Partial<Record<AreaName, AreaRelease>> {
  return chooseCanaryReleases(registry, bucket);
}
