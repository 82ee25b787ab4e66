/**
 * The server-render interface between the shop's server and the shell's server build
 * (`server/entry.cjs` of a shell version): the server evaluates the build once per choice of
 * area versions and renders each request's page with what `createShellServer` returned.
 */
import type { ReactElement } from 'react';
import type { AreaName } from './parts.ts';
import type { AreaRelease } from './registry.ts';
import type { AreaRoute } from './release-types.ts';

/** A route of the shell's table: an area's declared page and the area that ships it. */
export type ShellRoute = AreaRoute & { area: AreaName };

/** `Config`: the shell's runtime configuration, as the page embeds it (opaque to the server). */
export type ShellServer<Config = unknown> = {
  /** The table route a path renders (undefined: the shell's own pages or not found). */
  routeForPath(pathname: string): ShellRoute | undefined;
  /** Whether a path is a page at all (an area's route or the shell's own): otherwise the 404 page. */
  isPage(pathname: string): boolean;
  /**
   * Every load the page at this URL declares (its layout's and its route's, see `RouteData`), so the
   * server loads them all before its one render. Null when the page's area declares nothing (a build
   * from before route data): then the render discovers what the page asks for. Absent in older shells.
   */
  pageData?(url: string, request?: PageRequest): Promise<DeclaredPageData | null>;
  /**
   * Called with the page's loaded data before its render: the shell renders what it keeps as HTML
   * across requests (the layout's menu and footer, once per their data). Absent in older shells.
   */
  prepare?(props: { url: string; server: ServerRender }): void;
  /** The page's React tree for one request. */
  page(props: { url: string; config: Config; server: ServerRender }): ReactElement;
};

/**
 * A line of the shopper's basket as the basket's cookie mirrors it (rules/basket-cookie.ts): what a
 * server render of the basket may know of the shopper, and nothing else.
 */
export type BasketEntry = { readonly v_id: number; readonly amount: number };

/** What of the request a page's declared data may depend on, beyond its URL. */
export type PageRequest = {
  /** The basket's cookie, parsed; sent only to the basket's path. Empty: none, or not readable. */
  basket?: readonly BasketEntry[];
};

/** A load a page declares: the key `useResource` knows it by and how it is loaded (the API client's `resource(…)`). */
export type DeclaredLoad = { key: string; load: (signal: AbortSignal) => Promise<unknown> };

/** What the server loads before rendering a page. */
export type DeclaredPageData = {
  loads: DeclaredLoad[];
  /** The page's title comes from its address alone: its head may leave while the data loads. */
  headBeforeData: boolean;
};

/** What a route's data declaration gets: the path's params as the route matched them, and the URL's query. */
export type RouteMatch = {
  params: Readonly<Record<string, string | undefined>>;
  search: URLSearchParams;
  /** The shopper's basket where the request carried it (the basket's path only); absent from older shells. */
  basket?: readonly BasketEntry[];
};

/**
 * The data of one server-rendered route: built from the same `resource(…)` calls the page gives
 * `useResource`, so the keys are the ones the page asks for (a test renders every route with only
 * this data and fails on any other key).
 */
export type RouteData = {
  loads(match: RouteMatch): DeclaredLoad[];
  headBeforeData?: boolean;
};

/**
 * An area's route data by route name: `src/route-data.ts` of the area exports it as `routeData`,
 * and the area's server build carries it (module `./routeData`). Every route with `serverRender` has one.
 */
export type AreaRouteData = Readonly<Record<string, RouteData>>;

export type ShellServerOptions = {
  releases: Partial<Record<AreaName, AreaRelease>>;
  /** Where the areas' builds are served from (their remote entries are relative to it). */
  assetOrigin: string;
  /** Loads an exposed module of an area's server build, by `<area>/<module>` key. */
  loadModule: (key: string) => Promise<unknown>;
};

/** What the shell's server build exports. */
export type ShellServerModule<Config = unknown> = {
  createShellServer(options: ShellServerOptions): ShellServer<Config>;
};

/** A settled load: its data, or the status of the error it ended with. */
export type SettledLoad = { ok: true; data: unknown } | { ok: false; status: number; message: string };

export type PageMetaInput = {
  title: string | null;
  description?: string;
  canonical?: string | null;
  /** The page's main picture: its link preview, and fetched first (it is what a shopper waits to see). */
  image?: string | null;
};

/**
 * A picture as its `<img>` asks for it (`src`, and `srcSet`/`sizes` when it has a choice of widths): a
 * preload that repeats these lets the browser pick the same file for both, so it is fetched once.
 */
export type PagePicture = { src: string; srcSet?: string; sizes?: string };

/** What a page render gives the pages (the kernel's React helpers carry it in a context). */
export type ServerRender = {
  /** Loads settled before this render, by resource key. */
  readonly data: ReadonlyMap<string, SettledLoad>;
  /** Server only: a load the page asked for that has no settled value yet. */
  readonly collect?: (key: string, load: (signal: AbortSignal) => Promise<unknown>) => void;
  /** Server only: the page's title, description, canonical path and main picture. */
  readonly meta?: (meta: PageMetaInput) => void;
  /**
   * Server only: the picture the page's first view waits for (its largest paint), declared by the
   * component that shows it; the head asks for it ahead of everything else. The first declared wins.
   */
  readonly picture?: (picture: PagePicture) => void;
  /** Server only: a JSON-LD block of the page. */
  readonly jsonLd?: (id: string, json: string) => void;
  /** Server only: an area's stylesheet the page needs. */
  readonly styles?: (area: string, css: string) => void;
  /** The page's data says "not found": the shell shows its 404 page in place of the area's page. */
  readonly notFound?: boolean;
  /** Server only: the shop's public origin (configuration), for absolute URLs in structured data. */
  readonly origin?: string;
  /**
   * The basket the page was rendered with (the server's and the browser's first render alike), when
   * the request carried the basket's cookie: the basket page renders its lines from it and the data
   * its route declared for them, so hydration renders what the server did.
   */
  readonly basket?: readonly BasketEntry[];
};
