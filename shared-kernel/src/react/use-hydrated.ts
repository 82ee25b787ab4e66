import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False on the server and while React hydrates a server-rendered page, true from then on (and
 * from the first render of a page rendered in the browser). The switch after hydration re-renders
 * synchronously, in one task: for what must show at once on a page the browser renders (a page
 * that renders in the browser only); otherwise useAfterHydration.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
