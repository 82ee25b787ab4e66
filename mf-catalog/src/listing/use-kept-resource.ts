import { useRef } from 'react';
import { useResource } from '@shop/shared-kernel/react';

/**
 * useResource that keeps showing the last loaded data while the next key loads, so a listing
 * does not collapse and jump when a filter, the sort or the page changes. `stale` is true
 * while the shown data belongs to an earlier key.
 */
export function useKeptResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>) {
  const resource = useResource(key, load);
  const last = useRef<T | undefined>(undefined);
  if (resource.status === 'ready') last.current = resource.data;
  const data = resource.status === 'ready' ? resource.data : resource.status === 'loading' ? last.current : undefined;
  return { ...resource, data, stale: resource.status === 'loading' && data !== undefined };
}
