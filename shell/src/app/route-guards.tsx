/**
 * What a route needs before its page renders, decided by its entry in the route table (the
 * flags its area declares): `requiresBasket` and `requiresSignIn`. (`noConsent` is read by the
 * shell root, the analytics and the server's first frame.)
 */
import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuthStore, useBasketStore } from '@shop/shared-kernel';
import { isAuthenticated, signInPath } from '@shop/shared-kernel/rules';
import type { ShopRoute } from './route-table.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

/**
 * Checkout steps need a non-empty basket; otherwise the visitor goes to the
 * basket. Checked when the step is entered, not on every basket change: placing
 * the order empties the basket on the way to the thank-you page.
 */
export function RequireBasket({ children }: { children: ReactNode }) {
  const { key } = useLocation();
  const [entered, setEntered] = useState({ key, empty: useBasketStore.getState().lines.length === 0 });
  if (entered.key !== key) setEntered({ key, empty: useBasketStore.getState().lines.length === 0 });
  return entered.empty ? <Navigate to={shopPaths.cart()} replace /> : children;
}

/**
 * Pages for signed-in shoppers: a guest, or a shopper whose session just ended with a 401, is
 * sent to sign in and comes back after it (the kernel's signInPath).
 */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const signedIn = useAuthStore((state) => isAuthenticated(state.auth));
  const { pathname, search } = useLocation();
  return signedIn ? children : <Navigate to={signInPath(pathname, search)} replace />;
}

/** The page of a route behind the guards its table entry asks for. */
export function guarded(route: Pick<ShopRoute, 'requiresBasket' | 'requiresSignIn'>, page: ReactNode): ReactNode {
  let element = page;
  if (route.requiresBasket) element = <RequireBasket>{element}</RequireBasket>;
  if (route.requiresSignIn) element = <RequireSignIn>{element}</RequireSignIn>;
  return element;
}
