import { useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ServerRenderContext, type ServerRender } from '@shop/shared-kernel/react';

/**
 * Hands the server render's data to the pages of the URL it was rendered for: the first render
 * (hydration) shows what the server showed. Once the shopper moves on, pages load their own data.
 */
export function ServerDataScope({ value, children }: { value: ServerRender | null; children: ReactNode }) {
  const { pathname, search } = useLocation();
  const first = useRef(pathname + search);
  const left = useRef(false);
  if (pathname + search !== first.current) left.current = true;
  return <ServerRenderContext.Provider value={left.current ? null : value}>{children}</ServerRenderContext.Provider>;
}
