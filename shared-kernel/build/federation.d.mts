import type { Plugin, UserConfig } from 'vite';
export declare const KERNEL_BUILD_VERSION: string;
export declare function sharedSingletons(): Record<string, { singleton: true; requiredVersion: string }>;
export declare const federationDefaults: { dts: false; shareStrategy: 'loaded-first' };
export declare function areaMetaPlugin(options: { area: string; exposes: Record<string, string> }): Plugin;
export declare function areaViteConfig(options: {
  area: string;
  exposes: Record<string, string>;
  devPort: number;
  react: (...args: never[]) => unknown;
  federation: (options: never) => unknown;
}): UserConfig;
