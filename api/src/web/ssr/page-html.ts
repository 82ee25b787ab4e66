/**
 * The server-rendered page as HTML: the shell's index.html (from the shell build in force) with
 * the page's title, description, canonical URL, Open Graph tags, structured data and the area's
 * styles in the head, the rendered page in #root, and the data the browser hydrates with.
 */
import { documentTitle, SERVER_DATA_ID } from '@shop/shared-kernel/react';
import { escapeHtml } from '../../lib/html.ts';
import type { RenderedPage } from './page-render.ts';

/** JSON inside a <script>: nothing in it can close the element or start a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function pageHead(page: RenderedPage, publicUrl: string): { title: string | null; tags: string } {
  const { title, description, canonical } = page.meta;
  const tags: string[] = [];
  const shownTitle = title ? documentTitle(title) : null;
  const url = canonical ? new URL(canonical, `${publicUrl}/`).href : null;
  if (url) tags.push(`<link rel="canonical" href="${escapeHtml(url)}">`);
  if (shownTitle) {
    tags.push('<meta property="og:site_name" content="Stavebniny Domov">', '<meta property="og:locale" content="sk_SK">');
    tags.push(`<meta property="og:type" content="${page.jsonLd.some((block) => block.json.includes('"@type":"Product"')) ? 'product' : 'website'}">`);
    tags.push(`<meta property="og:title" content="${escapeHtml(title ?? shownTitle)}">`);
    if (description) tags.push(`<meta property="og:description" content="${escapeHtml(description)}">`);
    if (url) tags.push(`<meta property="og:url" content="${escapeHtml(url)}">`);
    const image = firstImage(page.jsonLd);
    if (image) tags.push(`<meta property="og:image" content="${escapeHtml(new URL(image, `${publicUrl}/`).href)}">`);
  }
  for (const block of page.jsonLd) {
    tags.push(`<script type="application/ld+json" data-json-ld="${escapeHtml(block.id)}" data-server>${block.json.replace(/</g, '\\u003c')}</script>`);
  }
  for (const style of page.styles) tags.push(`<style data-area="${escapeHtml(style.area)}">${style.css.replace(/<\/style/gi, '<\\/style')}</style>`);
  return { title: shownTitle, tags: tags.join('') };
}

/** The image of the page's product (structured data), for link previews. */
function firstImage(blocks: RenderedPage['jsonLd']): string | null {
  for (const block of blocks) {
    const image = (JSON.parse(block.json) as { image?: unknown }).image;
    const first = Array.isArray(image) ? image[0] : image;
    if (typeof first === 'string') return first;
  }
  return null;
}

/** index.html with the page in it. `config` is the shell's runtime configuration script and preloads. */
export function serverRenderedHtml(options: {
  template: string;
  page: RenderedPage;
  publicUrl: string;
  config: string;
  /** Markup after #root (the first-frame consent notice). */
  afterRoot: string;
}): string {
  const { template, page } = options;
  const head = pageHead(page, options.publicUrl);
  let html = template;
  if (head.title) html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(head.title)}</title>`);
  if (page.meta.description) {
    html = html.replace(/<meta name="description" content="[^"]*"\s*\/?>/, `<meta name="description" content="${escapeHtml(page.meta.description)}" />`);
  }
  const data = `<script type="application/json" id="${SERVER_DATA_ID}">${scriptJson(page.embedded)}</script>`;
  return html
    .replace('<!--shop-config-->', options.config + head.tags)
    .replace('<div id="root"></div>', `<div id="root">${page.html}</div>${options.afterRoot}${data}`);
}
