/**
 * What a server render and the first browser render share: the data the server loaded for the
 * page (so hydration renders the same markup without asking again), and, on the server, where
 * a page's title, meta, structured data and styles go.
 *
 * The context object is kept on globalThis under a registered symbol: every copy of this
 * module (each part bundles '/react' itself) gets the same object, so the shell's provider is
 * the one the areas' hooks read. The value is per request (server) or per page load (browser).
 */
import { createContext, type Context } from 'react';
import type { BasketEntry, ServerRender, SettledLoad } from '../contract/shell-server.ts';

export type { PageMetaInput, PagePicture, ServerRender, SettledLoad } from '../contract/shell-server.ts';

const KEY = Symbol.for('@shop/shared-kernel/server-render');
const holder = globalThis as { [KEY]?: Context<ServerRender | null> };

export const ServerRenderContext: Context<ServerRender | null> = (holder[KEY] ??= createContext<ServerRender | null>(null));

/** The `<script>` id of the data a server render embeds for hydration. */
export const SERVER_DATA_ID = 'shop-server-data';

/** What a server render embeds in the page for hydration. */
export type EmbeddedServerData = {
  /** The path the data belongs to: only the first render of that path uses it. */
  path: string;
  data: Record<string, SettledLoad>;
  /** The page is "not found" (the shell renders its 404 page). */
  notFound: boolean;
  /** The basket the server rendered the page with (ServerRender's `basket`). */
  basket?: readonly BasketEntry[];
};

/** The server-embedded data of this page load, or null (client-rendered page). */
export function readEmbeddedServerData(): EmbeddedServerData | null {
  if (typeof document === 'undefined') return null;
  const element = document.getElementById(SERVER_DATA_ID);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as EmbeddedServerData;
  } catch {
    return null;
  }
}
