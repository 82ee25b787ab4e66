import { startTransition, useEffect, useState } from 'react';

/**
 * False in the server's HTML and while React hydrates it, true right after, as a transition: React
 * renders what changes in slices and yields to the browser in between. useHydrated (beside this)
 * switches synchronously (useSyncExternalStore), and the shell's parts that change then (the cookie
 * notice appearing, the search box enabled) made one long task on a phone after hydration.
 * Each component switches after its own hydration, so a part that hydrates later (an area's page
 * whose code arrived after the shell's) is right too. A page the browser renders itself shows the
 * switch one render later; where that must not be (a page shown at once on navigation), useHydrated.
 */
export function useAfterHydration(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => startTransition(() => setAfter(true)), []);
  return after;
}
