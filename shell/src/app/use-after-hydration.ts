import { startTransition, useEffect, useState } from 'react';

/**
 * False in the server's HTML and while React hydrates it, true right after, as a transition: React
 * renders what changes in slices and yields to the browser in between. The kernel's useHydrated
 * switches synchronously (useSyncExternalStore), and the shell's parts that change then (the cookie
 * notice appearing, the search box enabled) made one task of 6–9 ms on a phone after hydration.
 * For the shell's own parts, which hydrate with the page; an area's part may hydrate later, and a
 * page the browser renders itself shows them one render later.
 */
export function useAfterHydration(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => startTransition(() => setAfter(true)), []);
  return after;
}
