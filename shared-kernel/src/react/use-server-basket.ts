import { useContext } from 'react';
import type { BasketEntry } from '../contract/index.ts';
import { ServerRenderContext } from './server-render.ts';

/**
 * The basket a server render of this page was given (the basket's cookie, on the basket's path),
 * on the server and in the browser's first render of that page; null anywhere else. What the
 * basket page renders before it may read the browser's storage, so hydration matches the server.
 */
export function useServerBasket(): readonly BasketEntry[] | null {
  return useContext(ServerRenderContext)?.basket ?? null;
}
