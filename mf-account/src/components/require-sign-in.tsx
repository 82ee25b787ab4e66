import type { ReactNode } from 'react';
import { Navigate, useLocation, useAuthStore } from '@shop/shared-kernel';
import { isAuthenticated, signInPath } from '@shop/shared-kernel/rules';

/**
 * Every /account page but sign-in, sign-up and password reset needs a signed-in shopper: a guest
 * (or a shopper whose session just ended with a 401) is sent to sign in and comes back here.
 * In the shop the shell's guard decides first, from the route's `requiresSignIn`, with the same
 * kernel rule; this one keeps the page safe where no such shell runs (the standalone harness,
 * a shell released before that guard).
 */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const signedIn = useAuthStore((state) => isAuthenticated(state.auth));
  const { pathname, search } = useLocation();
  if (!signedIn) return <Navigate to={signInPath(pathname, search)} replace />;
  return <>{children}</>;
}
