import { useEffect } from 'react';

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

/** Sets the document title, meta description and canonical URL of a page. */
export function usePageMeta(meta: { title: string | null; description?: string; canonical?: string | null }) {
  const { title, description, canonical = null } = meta;
  useEffect(() => {
    if (title === null) return;
    document.title = title === SHOP_NAME ? title : `${title} | ${SHOP_NAME}`;
    if (description) setMeta('description', description);
    setCanonical(canonical);
  }, [title, description, canonical]);
}
