/**
 * Preloading the requested page's area: the shell's routes.json says which
 * area and exposed module renders a path, the area's mf-manifest.json which
 * chunks that module needs. index.html then lists them (BOOT_PRELOAD_ID) for
 * its loader, which fetches them in parallel with the shell's own once the
 * page has painted, instead of one after another.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ShellRoute as TableRoute } from '@shop/shared-kernel/contract';
import type { AreaName, AreaRelease, PublicRegistry, ReleaseStorage } from '@shop/release';
import { BOOT_PRELOAD_ID } from '@shop/shared-kernel/rules';
import { escapeHtml } from '../infra/pure/html.ts';
import { scriptJson } from './ssr/page-html.ts';
import { folderOf, releasedFolder } from '../infra/storage/released-folder.ts';

/** What preloading needs of a route of the shell's table (the contract's ShellRoute). */
export type ShellRoute = Pick<TableRoute, 'path' | 'module' | 'noConsent'> & { area: string };

/** The routes of the areas in force, as the shell builds its route table from them. */
export function routesOf(registry: Pick<PublicRegistry, 'areas'>): ShellRoute[] {
  return (Object.entries(registry.areas) as [AreaName, AreaRelease][]).flatMap(([area, release]) =>
    (release.routes ?? []).map((route) => ({
      path: route.path,
      area,
      module: route.module,
      ...(route.noConsent ? { noConsent: true } : {}),
    })),
  );
}

type Manifest = { exposes?: { name: string; assets?: { js?: { sync?: string[] }; css?: { sync?: string[] } } }[] };

/** The route of a path, static segments before parameters (as the router ranks them). */
export function matchRoute(routes: ShellRoute[], pathname: string): ShellRoute | null {
  const parts = pathname.split('/').filter(Boolean);
  let best: { route: ShellRoute; score: number } | null = null;
  for (const route of routes) {
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    let score = 0;
    const matches = pattern.every((segment, index) => {
      if (segment.startsWith(':')) return parts[index] !== '';
      score += 1;
      return segment === decodeURIComponent(parts[index] ?? '');
    });
    if (matches && (!best || score > best.score)) best = { route, score };
  }
  return best?.route ?? null;
}

/** area.json's `preload`: per exposed module, every file loaded before it runs (the kernel's build/federation.mjs). */
type AreaMeta = { preload?: Record<string, string[]> };

const builds = new Map<string, Promise<unknown>>();

/**
 * A JSON file of a released build, read once (a released build never changes); null when it is
 * not there or not JSON. A build that could not be brought to local disk (the object store
 * unreachable) is tried again next time.
 */
function buildFile<T>(storage: ReleaseStorage, entry: string, name: string): Promise<T | null> {
  const folder = folderOf(entry);
  const id = storage.localPath(`${folder}/${name}`);
  let cached = builds.get(id);
  if (!cached) {
    const reading = releasedFolder(storage, folder).then(
      (dir) =>
        readFile(join(dir, name), 'utf8').then(
          (text) => JSON.parse(text) as T,
          () => null,
        ),
      () => {
        builds.delete(id);
        return null;
      },
    );
    cached = reading;
    builds.set(id, reading);
  }
  return cached as Promise<T | null>;
}

/** A preconnect to the areas' origin, and the list of the page's area entry and page chunks for index.html's loader. */
export async function areaPreloadLinks(options: {
  /** Where the areas' builds are read from. */
  storage: ReleaseStorage;
  registry: Pick<PublicRegistry, 'areas' | 'canaries'>;
  routes: ShellRoute[];
  pathname: string;
  assetOrigin: string;
}): Promise<string> {
  const route = matchRoute(options.routes, options.pathname);
  const area = route?.area as AreaName | undefined;
  const release = area ? options.registry.areas[area] : undefined;
  const links = [`<link rel="preconnect" href="${escapeHtml(options.assetOrigin)}" crossorigin>`];
  // With a canary running, which version this browser loads is its own (sticky) choice: preload neither.
  if (!route || !release || (area && options.registry.canaries?.[area])) return links.join('');
  const base = `${options.assetOrigin}/${release.entry.replace(/[^/]+$/, '')}`;
  const [manifest, meta] = await Promise.all([
    buildFile<Manifest>(options.storage, release.entry, 'mf-manifest.json'),
    buildFile<AreaMeta>(options.storage, release.entry, 'area.json'),
  ]);
  const expose = manifest?.exposes?.find((candidate) => `./${candidate.name}` === route.module);
  // The federation manifest's list, and the build's own (older builds have only the first).
  const files = new Set([
    release.entry.replace(/^.*\//, ''),
    ...(expose?.assets?.js?.sync ?? []),
    ...(meta?.preload?.[route.module] ?? []),
  ]);
  links.push(`<script type="application/json" id="${BOOT_PRELOAD_ID}">${scriptJson([...files].map((file) => base + file))}</script>`);
  return links.join('');
}
