import { useRef } from 'react';
import { useResource } from '@shop/shared-kernel/react';

/**
 * useResource that keeps showing the last loaded data while the next key loads, so a listing
 * does not collapse and jump when a filter, the sort or the page changes. `stale` is true
 * while the shown data belongs to an earlier key. Data of another `scope` (another category's
 * listing) is not kept.
 */
export function useKeptResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>, scope = '') {
  const resource = useResource(key, load);
  const last = useRef<{ scope: string; data: T } | undefined>(undefined);
  if (resource.status === 'ready') last.current = { scope, data: resource.data };
  const kept = last.current?.scope === scope ? last.current.data : undefined;
  const data = resource.status === 'ready' ? resource.data : resource.status === 'loading' ? kept : undefined;
  return { ...resource, data, stale: resource.status === 'loading' && data !== undefined };
}
