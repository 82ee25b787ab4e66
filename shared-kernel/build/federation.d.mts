import type { InlineConfig, Plugin, UserConfig } from 'vite';
export declare const KERNEL_BUILD_VERSION: string;
/** The version of the react package a build in `root` resolves (recorded in area.json / routes.json). */
export declare function resolvedReactVersion(root?: string): string;
export declare function sharedSingletons(options?: {
  provider?: boolean;
}): Record<string, { singleton: true; requiredVersion: string | false }>;
/** The JSX import source of browser builds (resolved by federationTrims to React's JSX runtime). */
export declare const BROWSER_JSX_SOURCE: string;
/** Browser builds: resolves BROWSER_JSX_SOURCE to React's production JSX runtime (outside the federation's share) and the runtime's package.json to its version alone. */
export declare function federationTrims(options?: { root?: string }): Plugin;
export declare const federationDefaults: {
  dts: false;
  shareStrategy: 'loaded-first';
  disableSnapshot: true;
  disableRemote: false;
  disableShared: false;
};
/** A page an area ships (the shell's route table is built from these at boot). */
export type { AreaRoute } from '../src/contract/release-types.ts';
import type { AreaRoute } from '../src/contract/release-types.ts';
export declare function areaMetaPlugin(options: {
  area: string;
  exposes: Record<string, string>;
  routes: AreaRoute[];
  root?: string;
}): Plugin;
export declare function areaViteConfig(options: {
  area: string;
  exposes: Record<string, string>;
  routes: AreaRoute[];
  devPort: number;
  react: (options?: { jsxImportSource?: string }) => unknown;
  federation: (options: never) => unknown;
  /** Vite's `build`, for the area's server build after its browser build. */
  viteBuild: (config: InlineConfig) => Promise<unknown>;
  /** The area's folder (default: the working directory, as Vite runs). */
  root?: string;
  /** Code only some pages use, kept out of the chunk every page loads (`<area>-<name>`); matched against module paths. */
  chunkGroups?: { name: string; test: RegExp }[];
}): UserConfig;
export declare const SERVER_SHARED: string[];
export declare const SERVER_BUILD_DIR: string;
export declare const SERVER_ENTRY_FILE: string;
export declare function serverBuildPlugin(options: {
  viteBuild: (config: InlineConfig) => Promise<unknown>;
  react: (...args: never[]) => unknown;
  entry?: string;
  source?: string;
  replace?: Record<string, string>;
}): Plugin;
/** Where an area declares the data of its server-rendered routes. */
export declare const ROUTE_DATA_FILE: string;
export declare function areaServerEntry(area: string, exposes: Record<string, string>, root: string): string;
