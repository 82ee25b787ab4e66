import { useContext } from 'react';
import { ServerRenderContext } from './server-render.ts';
import type { PagePicture } from '../contract/shell-server.ts';

/**
 * Declares the picture a page's first view waits for (its largest paint), from the component that
 * shows it, with its `<img>`'s own attributes: a server render asks for it from the head, before the
 * browser has parsed down to the picture. Null declares nothing; in the browser it does nothing.
 */
export function useFirstViewPicture(picture: PagePicture | null) {
  const server = useContext(ServerRenderContext);
  if (picture) server?.picture?.(picture);
}
