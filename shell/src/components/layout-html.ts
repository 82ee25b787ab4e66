/**
 * The parts of the layout that change only with a release or a catalog change (the header's
 * category menu, the footer's site details): on the shop's server they are rendered to HTML once
 * per shell instance (one release choice) and per their data, and each page splices the HTML in
 * (`dangerouslySetInnerHTML` on the part's own element) instead of rendering them again. The
 * browser renders the same components over that markup, so hydration sees what it would have
 * rendered itself. server-entry.tsx fills this before each render (`prepare`); the browser never does.
 *
 * Keyed by the data's own JSON (what the menu and footer show), so a catalog change or a new
 * footer link is a new key: no version needs to be told. The menu's key also names which of its
 * links is active for the page's path (NavLink marks it), the only thing of the request in it.
 */
import { shopPaths, type MenuData, type SiteData } from '@shop/shared-kernel/contract';

/** A handful of keys live at once (one menu per active link); the bound keeps a churning catalog from piling them up. */
const LIMIT = 64;
const parts = new Map<string, string>();

export function layoutHtml(key: string): string | undefined {
  return parts.get(key);
}

export function rememberLayoutHtml(key: string, html: string): void {
  parts.set(key, html);
  while (parts.size > LIMIT) parts.delete(parts.keys().next().value as string);
}

/** Forgets every part (tests compare a page rendered whole with one spliced). */
export function forgetLayoutHtml(): void {
  parts.clear();
}

/** How many parts are kept (tests). */
export function layoutParts(): number {
  return parts.size;
}

/** The menu links' paths, as NavLink compares them. */
const menuPaths = (menu: MenuData) => [
  ...menu.categories.map((category) => shopPaths.category(category.cat_url)),
  ...menu.links.map((link) => link.url),
];

const pathOf = (to: string) => to.replace(/[?#].*$/, '').replace(/(.)\/$/, '$1');

/** Whether the kernel's NavLink (not `end`) marks a link to `to` active at `pathname`: its own test (the byte-for-byte test in route-data.test.ts checks the two agree). */
function activeAt(to: string, pathname: string): boolean {
  const current = pathOf(pathname);
  const path = pathOf(to);
  return current === path || (path !== '/' && current.startsWith(`${path}/`));
}

/** A request's data as text, once per data object (the key is asked for before the render and in it). */
const texts = new WeakMap<object, string>();
function textOf(data: object): string {
  let text = texts.get(data);
  if (text === undefined) texts.set(data, (text = JSON.stringify(data)));
  return text;
}

export function menuKey(menu: MenuData, pathname: string): string {
  const active = menuPaths(menu).map((to) => (activeAt(to, pathname) ? '1' : '0'));
  return `menu\u0000${active.join('')}\u0000${textOf(menu)}`;
}

export function footerKey(site: SiteData): string {
  return `footer\u0000${textOf(site)}`;
}

/** Server only: the cached HTML of a part, or undefined (then the part renders as in the browser). */
export function cachedPart(key: () => string): { dangerouslySetInnerHTML: { __html: string } } | null {
  if (typeof window !== 'undefined') return null;
  const html = parts.get(key());
  return html === undefined ? null : { dangerouslySetInnerHTML: { __html: html } };
}
