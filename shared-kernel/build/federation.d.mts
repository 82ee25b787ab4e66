import type { Plugin, UserConfig } from 'vite';
export declare const KERNEL_BUILD_VERSION: string;
export declare function sharedSingletons(): Record<string, { singleton: true; requiredVersion: string }>;
export declare const federationDefaults: { dts: false; shareStrategy: 'loaded-first' };
/** A page an area ships (the shell's route table is built from these at boot). */
export type { AreaRoute } from '../src/contract/domain.ts';
import type { AreaRoute } from '../src/contract/domain.ts';
export declare function areaMetaPlugin(options: { area: string; exposes: Record<string, string>; routes: AreaRoute[] }): Plugin;
export declare function areaViteConfig(options: {
  area: string;
  exposes: Record<string, string>;
  routes: AreaRoute[];
  devPort: number;
  react: (...args: never[]) => unknown;
  federation: (options: never) => unknown;
}): UserConfig;
