/**
 * The server-render interface between the shop's server and the shell's server build
 * (`server/entry.cjs` of a shell version): the server evaluates the build once per choice of
 * area versions and renders each request's page with what `createShellServer` returned.
 */
import type { ReactElement } from 'react';
import type { ServerRender } from '../react/server-render.ts';
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
  /** The page's React tree for one request. */
  page(props: { url: string; config: Config; server: ServerRender }): ReactElement;
};

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
