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

/** A settled load: its data, or the status of the error it ended with. */
export type SettledLoad = { ok: true; data: unknown } | { ok: false; status: number; message: string };

export type PageMetaInput = {
  title: string | null;
  description?: string;
  canonical?: string | null;
  /** The page's main picture: its link preview, and fetched first (it is what a shopper waits to see). */
  image?: string | null;
};

export type ServerRender = {
  /** Loads settled before this render, by resource key. */
  readonly data: ReadonlyMap<string, SettledLoad>;
  /** Server only: a load the page asked for that has no settled value yet. */
  readonly collect?: (key: string, load: (signal: AbortSignal) => Promise<unknown>) => void;
  /** Server only: the page's title, description, canonical path and main picture. */
  readonly meta?: (meta: PageMetaInput) => void;
  /** Server only: a JSON-LD block of the page. */
  readonly jsonLd?: (id: string, json: string) => void;
  /** Server only: an area's stylesheet the page needs. */
  readonly styles?: (area: string, css: string) => void;
  /** The page's data says "not found": the shell shows its 404 page in place of the area's page. */
  readonly notFound?: boolean;
  /** Server only: the shop's public origin (configuration), for absolute URLs in structured data. */
  readonly origin?: string;
};

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
