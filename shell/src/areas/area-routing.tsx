import { useMemo, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { RoutingProvider, type ShopRouting } from '@shop/shared-kernel';
import { KEEP_SCROLL } from '../app/route-effects.ts';

/**
 * Gives area pages the kernel's routing primitives, backed by the shell's
 * router. Areas never import the router library, so it is not a shared
 * singleton and the shell's bundle carries only the parts the shell uses.
 * The shell's own header, footer and pages link through them too (around the
 * whole route tree, without parameters): the router's own Link resolves its
 * path against the matched routes on every render, a visible share of a server render.
 */
export function AreaRouting({ children }: { children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const params = useParams();
  const navigate = useNavigate();
  const value = useMemo<ShopRouting>(
    () => ({
      location: { pathname, search, hash },
      params,
      navigate: (to, options) => void navigate(to, { replace: options?.replace, state: options?.preventScrollReset ? KEEP_SCROLL : null }),
    }),
    [pathname, search, hash, params, navigate],
  );
  return <RoutingProvider value={value}>{children}</RoutingProvider>;
}
