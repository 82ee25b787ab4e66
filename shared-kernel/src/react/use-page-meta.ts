import { useContext, useEffect } from 'react';
import { ServerRenderContext, type PageMetaInput } from './server-render.ts';

export const SHOP_NAME = 'Stavebniny Domov';

function setMeta(name: string, content: string) {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!element) {
    element = document.createElement('meta');
    element.name = name;
    document.head.append(element);
  }
  element.content = content;
}

function setCanonical(href: string | null) {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!href) {
    link?.remove();
    return;
  }
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.append(link);
  }
  link.href = new URL(href, window.location.origin).href;
}

/** The title the document shows for a page's title. */
export function documentTitle(title: string): string {
  return title === SHOP_NAME ? title : `${title} | ${SHOP_NAME}`;
}

/**
 * Sets the document title, meta description and canonical URL of a page; on the server they go
 * into the rendered head, with the page's main picture (link previews, and fetched first).
 */
export function usePageMeta(meta: PageMetaInput) {
  const { title, description, canonical = null, image = null } = meta;
  useContext(ServerRenderContext)?.meta?.({ title, description, canonical, image });
  useEffect(() => {
    if (title === null) return;
    document.title = documentTitle(title);
    if (description) setMeta('description', description);
    setCanonical(canonical);
  }, [title, description, canonical]);
}
