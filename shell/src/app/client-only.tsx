import type { ReactNode } from 'react';
import { useHydrated } from '@shop/shared-kernel/react';

/**
 * A page that depends on the shopper (basket, checkout, account, the operators' console) renders
 * in the browser only: the server's HTML, and the hydration of it, show `fallback` inside the
 * server-rendered layout; the page itself follows at once after hydration.
 */
export function ClientOnly({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return useHydrated() ? children : fallback;
}
