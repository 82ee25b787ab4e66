/**
 * Menu and site data: loaded once per page load; a failure is ignored
 * (requirements R8.4) and the page works without them. A server-rendered page
 * has them in its HTML, and the browser hydrates with the same data.
 */
import { resource } from '@shop/shared-kernel';
import { dataOf, useResource, type ResourceSource } from '@shop/shared-kernel/react';
import type { MenuData, SiteData } from '@shop/shared-kernel/contract';

/**
 * In the browser, one request per page load whichever layout asks (an area asking for the same
 * call shares its key); on the server, every render asks anew (no data crosses requests).
 */
function once<T>(source: ResourceSource<T>): ResourceSource<T> {
  if (typeof window === 'undefined') return source;
  let pending: Promise<T> | null = null;
  // Shared by every asker, so no one asker's abort (an unmount) may cancel it.
  return { key: source.key, load: () => (pending ??= source.load(new AbortController().signal)) };
}

const menu = once(resource('GET /api/menu'));
const site = once(resource('GET /api/site'));

/** What every layout with the shop's header and footer shows: declared for the server's one render (page-data.server.ts). */
export const layoutLoads = () => [menu, site];

export const useMenu = (): MenuData | null => useResource(menu, { select: dataOf }).data ?? null;
export const useSite = (): SiteData | null => useResource(site, { select: dataOf }).data ?? null;
