/**
 * The release registry `builds/latest.json`: which version of each area is in
 * force, where its entry lives and which pages it ships; canaries and their
 * share of shoppers. Injected into index.html, fetched to compare revisions.
 */
import type { AreaRoute } from '@shop/shared-kernel/contract';
import { chooseReleases as chooseCanaryReleases } from '@shop/shared-kernel/rules';

export const AREA_NAMES = ['catalog', 'checkout', 'account', 'content'] as const;
export type AreaName = (typeof AREA_NAMES)[number];

export type AreaRouteSpec = AreaRoute;

export type AreaRelease = {
  version: string;
  /** Path of the area's remote entry, relative to the asset origin. */
  entry: string;
  /** Kernel version the area was built against (its contract). */
  kernel: string;
  exposes: string[];
  /** The pages the area ships. */
  routes?: AreaRouteSpec[];
};

export type Registry = {
  /** Changes with every move; the shell compares it to detect a new release. */
  revision: string;
  areas: Partial<Record<AreaName, AreaRelease>>;
  /** Versions in force for a share (percent) of shoppers. */
  canaries?: Partial<Record<AreaName, AreaRelease & { share: number }>>;
};

export const REGISTRY_URL = '/builds/latest.json';

export async function fetchRegistry(): Promise<Registry> {
  // eslint-disable-next-line no-restricted-globals -- the public release registry (/builds), a static file, not /api
  const response = await fetch(REGISTRY_URL, { cache: 'no-store' });
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
