import { useContext } from 'react';
import { ServerRenderContext } from './server-render.ts';

/** The shop's origin for absolute URLs (structured data): configured on the server, the page's own in the browser. */
export function usePublicOrigin(): string {
  const configured = useContext(ServerRenderContext)?.origin;
  if (configured) return configured;
  return typeof window === 'undefined' ? '' : window.location.origin;
}
