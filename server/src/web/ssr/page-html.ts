/**
 * The server-rendered page as HTML: the shell's index.html (from the shell build in force) with
 * the page's title, description, canonical URL, Open Graph tags, structured data and the area's
 * styles in the head, the rendered page in #root, and the data the browser hydrates with; in two
 * parts (documentStart, documentRest) when the head leaves ahead of the page.
 */
import { documentTitle, SERVER_DATA_ID, type EmbeddedServerData } from '@shop/shared-kernel/react';
import { escapeHtml } from '../../infra/pure/html.ts';
import { picturePreloadLink } from '../picture-preload.ts';
import { areaStyleText } from '../page-policy.ts';
import type { PageHead, RenderedPage } from './page-render.ts';
import { answerText } from './in-process-api.ts';

/** JSON inside a <script>: nothing in it can close the element or start a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The data the browser hydrates with, as scriptJson would write it: each answer that came from the
 * API in-process as the JSON text it came as (stringifying the parsed page data again cost as much
 * as parsing it), anything else stringified.
 */
export function embeddedJson(embedded: EmbeddedServerData): string {
  const loads = Object.entries(embedded.data).map(([key, settled]) => {
    const text = settled.ok ? answerText(settled.data) : undefined;
    return `${JSON.stringify(key)}:${text === undefined ? JSON.stringify(settled) : `{"ok":true,"data":${text}}`}`;
  });
  const basket = embedded.basket ? `,"basket":${JSON.stringify(embedded.basket)}` : '';
  const json = `{"path":${JSON.stringify(embedded.path)},"data":{${loads.join(',')}},"notFound":${embedded.notFound === true}${basket}}`;
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Structured data and styles as tags: in the head, or at the top of the body when they came after the head left. */
function dataAndStyleTags(page: Pick<PageHead, 'jsonLd' | 'styles'>): string[] {
  const tags: string[] = [];
  for (const block of page.jsonLd) {
    tags.push(
      `<script type="application/ld+json" data-json-ld="${escapeHtml(block.id)}" data-server>${block.json.replace(/</g, '\\u003c')}</script>`,
    );
  }
  // The page's policy admits each by the hash of this text (page-policy.ts).
  for (const style of page.styles) tags.push(`<style data-area="${escapeHtml(style.area)}">${areaStyleText(style.css)}</style>`);
  return tags;
}

export function pageHead(page: PageHead, publicUrl: string): { title: string | null; tags: string } {
  const { title, description, canonical } = page.meta;
  const tags: string[] = [];
  const shownTitle = title ? documentTitle(title) : null;
  const url = canonical ? new URL(canonical, `${publicUrl}/`).href : null;
  if (url) tags.push(`<link rel="canonical" href="${escapeHtml(url)}">`);
  if (shownTitle) {
    tags.push('<meta property="og:site_name" content="Stavebniny Domov">', '<meta property="og:locale" content="sk_SK">');
    tags.push(
      `<meta property="og:type" content="${page.jsonLd.some((block) => block.json.includes('"@type":"Product"')) ? 'product' : 'website'}">`,
    );
    tags.push(`<meta property="og:title" content="${escapeHtml(title ?? shownTitle)}">`);
    if (description) tags.push(`<meta property="og:description" content="${escapeHtml(description)}">`);
    if (url) tags.push(`<meta property="og:url" content="${escapeHtml(url)}">`);
    // Areas built before pages named their picture carry it only in their structured data.
    const image = page.meta.image ?? firstImage(page.jsonLd);
    if (image) tags.push(`<meta property="og:image" content="${escapeHtml(new URL(image, `${publicUrl}/`).href)}">`);
  }
  tags.push(...dataAndStyleTags(page));
  return { title: shownTitle, tags: tags.join('') };
}

/** The image of the page's product (structured data), for link previews. */
function firstImage(blocks: PageHead['jsonLd']): string | null {
  for (const block of blocks) {
    const image = (JSON.parse(block.json) as { image?: unknown }).image;
    const first = Array.isArray(image) ? image[0] : image;
    if (typeof first === 'string') return first;
  }
  return null;
}

const ROOT = '<div id="root"></div>';

/**
 * The document up to the page (head, and the body's opening), from the shell's index.html. `config` is the shell's
 * runtime configuration script and preloads.
 */
export function documentStart(options: { template: string; head: PageHead; publicUrl: string; config: string }): string {
  const head = pageHead(options.head, options.publicUrl);
  let html = options.template.slice(0, options.template.indexOf(ROOT));
  if (head.title) html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(head.title)}</title>`);
  if (options.head.meta.description) {
    html = html.replace(
      /<meta name="description" content="[^"]*"\s*\/?>/,
      `<meta name="description" content="${escapeHtml(options.head.meta.description)}" />`,
    );
  }
  // The first view's picture is asked for before the scripts, which would otherwise queue ahead of it.
  const preload = picturePreloadLink(options.head);
  return html.replace('<!--shop-config-->', preload + options.config + head.tags);
}

/**
 * The rest of the document: the rendered page in #root, the data the browser hydrates with, and
 * the end of index.html. Structured data and styles the head did not carry (it left before them) come first.
 */
export function documentRest(options: { template: string; page: RenderedPage; afterRoot: string }): string {
  const { page, template } = options;
  const sent = page.sentHead;
  const late = sent
    ? dataAndStyleTags({
        jsonLd: page.jsonLd.filter((block) => !sent.jsonLd.some((early) => early.id === block.id)),
        styles: page.styles.filter((style) => !sent.styles.some((early) => early.area === style.area)),
      }).join('')
    : '';
  const data = `<script type="application/json" id="${SERVER_DATA_ID}">${page.embeddedJson ?? embeddedJson(page.embedded)}</script>`;
  return `${late}<div id="root">${page.html}</div>${options.afterRoot}${data}${template.slice(template.indexOf(ROOT) + ROOT.length)}`;
}

/** The rest of the document when the render failed after the head left: the browser renders the page. */
export function documentRestInBrowser(template: string, firstFrame: string): string {
  return `<div id="root">${firstFrame}</div>${template.slice(template.indexOf(ROOT) + ROOT.length)}`;
}

/** The whole server-rendered document in one piece (a page whose head did not leave ahead, or the page cache's copy). */
export function serverRenderedHtml(options: {
  template: string;
  page: RenderedPage;
  publicUrl: string;
  config: string;
  afterRoot: string;
}): string {
  const head = options.page.sentHead ?? options.page;
  return documentStart({ template: options.template, head, publicUrl: options.publicUrl, config: options.config }) + documentRest(options);
}
