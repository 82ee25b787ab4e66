import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { useHydrated } from '@shop/shared-kernel/react';

/**
 * A page that depends on the shopper (basket, checkout, account, the operators' console) renders
 * in the browser only: the server's HTML, and the hydration of it, show `fallback` inside the
 * server-rendered layout; the page itself follows right after hydration, as a transition (React
 * renders it in slices and yields to the browser in between, where the switch after hydration
 * alone would render the whole page in one synchronous task). A page the browser renders from the
 * start (no server HTML, or a later navigation) shows at once.
 */
export function ClientOnly({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const hydrated = useHydrated();
  const [shown, setShown] = useState(hydrated);
  useEffect(() => {
    if (!shown) startTransition(() => setShown(true));
  }, [shown]);
  return shown ? children : fallback;
}
