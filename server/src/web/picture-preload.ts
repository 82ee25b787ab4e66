/**
 * The head's preload of the picture a page's first view waits for (its largest paint). The
 * component that shows it declares it while the page renders (`useFirstViewPicture`), with its
 * `<img>`'s own `src`, `srcset` and `sizes`: the browser starts on it from the head, before the
 * scripts and before parsing down to the picture, and picks the same file for both (fetched once).
 */
import { pictureAttributes } from '@shop/shared-kernel/rules';
import type { PageMetaInput, PagePicture } from '@shop/shared-kernel/contract';
import { escapeHtml } from '../infra/pure/html.ts';

/** Whether a declared address is one of the shop's own (a path), not a link a page could point anywhere. */
const ownPath = (url: string | undefined) => url === undefined || (url.startsWith('/') && !url.startsWith('//'));

/**
 * The picture to preload: the one the page declared, else (areas built before pages declared it) the
 * page's main picture as the product gallery lays it out; null for a page without one.
 */
export function firstViewPicture(head: { meta: PageMetaInput; picture?: PagePicture | null }): PagePicture | null {
  if (head.picture) return head.picture;
  return head.meta.image ? pictureAttributes(head.meta.image, 'main') : null;
}

/** `<link rel="preload" as="image">` for the page's picture ('' when it has none). */
export function picturePreloadLink(head: { meta: PageMetaInput; picture?: PagePicture | null }): string {
  const picture = firstViewPicture(head);
  if (!picture || !ownPath(picture.src)) return '';
  const choice =
    picture.srcSet && picture.sizes ? ` imagesrcset="${escapeHtml(picture.srcSet)}" imagesizes="${escapeHtml(picture.sizes)}"` : '';
  return `<link rel="preload" as="image" href="${escapeHtml(picture.src)}"${choice} fetchpriority="high">`;
}
