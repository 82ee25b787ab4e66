/**
 * Menu and site data: loaded once per page load; a failure is ignored
 * (spec section 8) and the page works without them. A server-rendered page
 * has them in its HTML, and the browser hydrates with the same data.
 */
import { api } from '@shop/shared-kernel';
import { useResource } from '@shop/shared-kernel/react';
import type { MenuData, SiteData } from '@shop/shared-kernel/contract';

/** In the browser, one request per page load whichever layout asks; on the server, every render asks anew (no data crosses requests). */
function once<T>(load: () => Promise<T>): () => Promise<T | null> {
  if (typeof window === 'undefined') return () => load().catch(() => null);
  let pending: Promise<T | null> | null = null;
  return () => (pending ??= load().catch(() => null));
}

const loadMenu = once(() => api.menu().then((answer) => answer.data));
const loadSite = once(() => api.site().then((answer) => answer.data));

export const useMenu = (): MenuData | null => useResource('shell:menu', loadMenu).data ?? null;
export const useSite = (): SiteData | null => useResource('shell:site', loadSite).data ?? null;
