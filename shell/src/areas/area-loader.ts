/**
 * Registers the areas with the federation runtime and loads their exposed
 * page modules on demand. A failure stays with the area that failed.
 *
 * A load that fails for a reason another attempt can mend (load-failure.ts) is tried again with
 * back-off, a bounded number of times: twice from where the area loads now, then twice from the
 * other address of the same signed files (the shop's own origin when the asset origin, a CDN,
 * fails). The page's import map names both with the same digests, so the fallback's bytes are
 * checked as the CDN's are. A load that needed more than one attempt is reported as `recovered`
 * (never as an error); only when every attempt failed does the area show its Slovak message.
 */
import { importAreaModule, moveAreaEntry, registerAreaEntries, type AreaEntry } from './module-source.ts';
import type { ComponentType } from 'react';
import { bus, KERNEL_VERSION } from '@shop/shared-kernel';
import { isContractCompatible } from '@shop/shared-kernel/rules';
import { whyLoadFailed, type FailureKind } from './load-failure.ts';
import { reportError } from '../app/telemetry.ts';
import type { AreaName, AreaRelease } from './registry.ts';
import type { AreaRouteData } from '@shop/shared-kernel/contract';

export type AreaPageModule = { default: ComponentType };

export class AreaLoadError extends Error {
  constructor(
    readonly area: AreaName,
    readonly module: string,
    readonly reason: 'unavailable' | 'incompatible' | 'unreleased',
    cause?: unknown,
    /** Why the last attempt failed, when it was tried (load-failure.ts). */
    readonly failure?: FailureKind,
  ) {
    super(`Area ${area} could not load ${module}: ${reason}${failure ? ` (${failure})` : ''}`, { cause });
    this.name = 'AreaLoadError';
  }
}

/** Where an area's files are loaded from: the asset origin (ASSET_ORIGIN) or the shop's own. */
export type AreaOrigin = 'asset' | 'shop';

/** Waits before the 2nd, 3rd and 4th attempt (ms); the 3rd is the first from the other origin. */
export const RETRY_DELAYS_MS = [250, 500, 1500] as const;
/** Attempts from one origin before the other is tried. */
const ATTEMPTS_PER_ORIGIN = 2;

type Released = { version: string; compatible: boolean; entry: string; from: AreaOrigin; exposes: readonly string[] };

const released = new Map<AreaName, Released>();
const modules = new Map<string, Promise<AreaPageModule>>();
const failed = new Set<string>();
const origins: Record<AreaOrigin, string> = { asset: '', shop: '' };
/** Set once the asset origin failed for a network reason: areas not yet loaded start from the shop's origin. */
let assetOriginDown = false;
let wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const entryUrl = (release: Released, from: AreaOrigin = release.from) => new URL(release.entry, `${origins[from]}/`).href;
const baseOf = (entry: string) => entry.slice(0, entry.lastIndexOf('/') + 1);

/**
 * Registers the releases this page load uses (chooseReleases: in force, canary or preview). The
 * shop's own origin (the page's) serves the same released files, for when the asset origin fails.
 */
export function registerAreas(
  releases: Partial<Record<AreaName, AreaRelease>>,
  assetOrigin: string,
  shopOrigin: string = typeof window === 'undefined' ? assetOrigin : window.location.origin,
): void {
  origins.asset = assetOrigin;
  origins.shop = shopOrigin;
  assetOriginDown = false;
  const remotes: AreaEntry[] = [];
  for (const [name, release] of Object.entries(releases) as [AreaName, AreaRelease | undefined][]) {
    if (!release) continue;
    const compatible = isContractCompatible(KERNEL_VERSION, release.kernel);
    const area: Released = { version: release.version, compatible, entry: release.entry, from: 'asset', exposes: release.exposes ?? [] };
    released.set(name, area);
    if (!compatible) continue;
    remotes.push({ name, entry: entryUrl(area) });
  }
  registerAreaEntries(remotes);
}

export function areaVersion(area: AreaName): string | null {
  return released.get(area)?.version ?? null;
}

/** Where an area's files come from now (tests, the bench). */
export function areaOrigin(area: AreaName): AreaOrigin | null {
  return released.get(area)?.from ?? null;
}

const moduleKey = (area: AreaName, module: string) => `${area}/${module.replace(/^\.\//, '')}`;

function moveArea(area: AreaName, release: Released, to: AreaOrigin): void {
  if (release.from === to || origins[to] === origins[release.from]) return;
  release.from = to;
  moveAreaEntry({ name: area, entry: entryUrl(release) });
}

/** One exposed module, attempt after attempt while the failure is one another attempt can mend. */
async function loadWithRetries(area: AreaName, module: string, release: Released): Promise<AreaPageModule> {
  const key = moduleKey(area, module);
  if (assetOriginDown) moveArea(area, release, 'shop');
  for (let attempt = 1; ; attempt += 1) {
    const from = release.from;
    try {
      const loaded = await importAreaModule<AreaPageModule>(key);
      if (!loaded || typeof loaded.default !== 'function') throw new AreaLoadError(area, module, 'unavailable');
      if (attempt > 1) reportError('recovered', area, release.version, `${module}: loaded from ${from} on attempt ${attempt}`);
      return loaded;
    } catch (error) {
      if (error instanceof AreaLoadError) throw error;
      // A server render's builds are handed in by the server: nothing to fetch again.
      if (typeof document === 'undefined') throw new AreaLoadError(area, module, 'unavailable', error);
      const entry = entryUrl(release, from);
      const failure = await whyLoadFailed(error, baseOf(entry), entry);
      if (failure !== 'network' || attempt > RETRY_DELAYS_MS.length) throw new AreaLoadError(area, module, 'unavailable', error, failure);
      await wait(RETRY_DELAYS_MS[attempt - 1]!);
      if (attempt % ATTEMPTS_PER_ORIGIN === 0) {
        if (from === 'asset') assetOriginDown = true;
        moveArea(area, release, from === 'asset' ? 'shop' : 'asset');
      }
    }
  }
}

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
      : loadWithRetries(area, module, release);
  // When a page's module was first asked for (the bench and the tests read it).
  globalThis.performance?.mark?.(`shop:area-load:${key}`);
  return keep(key, area, module, loading);
}

/** Keeps a load as the area module's: a failure stays failed (until `forgetFailedLoad`), is logged and reported. */
function keep(key: string, area: AreaName, module: string, loading: Promise<AreaPageModule>): Promise<AreaPageModule> {
  modules.set(key, loading);
  // Marked as React's use() reads a settled promise: a page whose module is already here renders
  // (and hydrates) at once, without suspending first.
  loading.then(
    (value) => Object.assign(loading, { status: 'fulfilled', value }),
    () => undefined,
  );
  loading.catch((error: unknown) => {
    failed.add(key);
    console.error(error, (error as Error).cause);
    bus.emit('area:load-failed', { area, module, error: String(error) });
  });
  return loading;
}

/**
 * Loads an area's page module ahead of a click (prefetch): kept once it has loaded; a network
 * failure is forgotten without a word (no console error, no report, nothing kept as failed), so
 * the click itself loads it again, with its retries, and reports only if it fails then.
 */
export function prefetchAreaModule(area: AreaName, module: string): Promise<void> {
  const key = moduleKey(area, module);
  const release = released.get(area);
  if (modules.has(key) || !release?.compatible) return Promise.resolve();
  const loading = loadWithRetries(area, module, release);
  return loading.then(
    (value) => {
      if (modules.has(key)) return;
      const loaded = Promise.resolve(value);
      modules.set(key, Object.assign(loaded, { status: 'fulfilled', value }));
    },
    (error: unknown) => {
      // Changed bytes are no passing trouble: contained and reported as a page's own load would be.
      if (error instanceof AreaLoadError && error.failure === 'tampered' && !modules.has(key))
        keep(key, area, module, loading).catch(() => undefined);
    },
  );
}

const routeData = new Map<AreaName, Promise<AreaRouteData | null>>();

/**
 * An area's route data (its `src/route-data.ts`, exposed as './routeData' by builds that have it):
 * what each of its server-rendered routes loads, for warming a page's data ahead of a click. Null
 * for a version without it; loaded once, tried once (warming is never worth a retry).
 */
export function loadRouteData(area: AreaName): Promise<AreaRouteData | null> {
  let table = routeData.get(area);
  if (!table) {
    const release = released.get(area);
    table =
      release?.compatible && release.exposes.includes('./routeData')
        ? importAreaModule<{ routeData?: AreaRouteData }>(`${area}/routeData`).then(
            (module) => module?.routeData ?? null,
            () => null,
          )
        : Promise.resolve(null);
    routeData.set(area, table);
  }
  return table;
}

/** Drops a failed load so the next render tries the area again. */
export function forgetFailedLoad(area: AreaName, module: string): void {
  const key = moduleKey(area, module);
  if (failed.delete(key)) modules.delete(key);
}

/** Replaces the wait between attempts (tests). */
export function setRetryWait(next: (ms: number) => Promise<void>): void {
  wait = next;
}
