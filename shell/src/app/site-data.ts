/**
 * Menu and site data: loaded once per page load; a failure is ignored
 * (spec section 8) and the page works without them.
 */
import { useEffect, useState } from 'react';
import { api } from '@shop/shared-kernel';
import type { MenuData, SiteData } from '@shop/shared-kernel/contract';

function once<T>(load: () => Promise<T>): () => Promise<T | null> {
  let pending: Promise<T | null> | null = null;
  return () => (pending ??= load().catch(() => null));
}

const loadMenu = once(() => api.menu().then((answer) => answer.data));
const loadSite = once(() => api.site().then((answer) => answer.data));

function useOnce<T>(load: () => Promise<T | null>): T | null {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    let live = true;
    void load().then((loaded) => live && setValue(loaded));
    return () => {
      live = false;
    };
  }, [load]);
  return value;
}

export const useMenu = (): MenuData | null => useOnce(loadMenu);
export const useSite = (): SiteData | null => useOnce(loadSite);
