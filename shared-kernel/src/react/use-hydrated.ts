import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False on the server and while React hydrates a server-rendered page, true from then on (and
 * from the first render of a page rendered in the browser). For what depends on this browser
 * (the consent notice) and for controls that must not take input React would not see yet.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
