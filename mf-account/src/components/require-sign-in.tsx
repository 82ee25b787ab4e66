import type { ReactNode } from 'react';
import { Navigate, useLocation, isAuthenticated, useAuthStore } from '@shop/shared-kernel';

/** Where a guest goes: the sign-in page, with the page they wanted as `next`. */
export function signInPath(pathname: string, search = ''): string {
  return `/account/login?next=${encodeURIComponent(`${pathname}${search}`)}`;
}

/**
 * Every /account page but sign-in, sign-up and password reset needs a signed-in shopper: a guest
 * (or a shopper whose session just ended with a 401) is sent to sign in and comes back here.
 */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const signedIn = useAuthStore((state) => isAuthenticated(state.auth));
  const { pathname, search } = useLocation();
  if (!signedIn) return <Navigate to={signInPath(pathname, search)} replace />;
  return <>{children}</>;
}
