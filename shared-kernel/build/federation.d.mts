import type { Plugin, UserConfig } from 'vite';
export declare const KERNEL_BUILD_VERSION: string;
export declare function sharedSingletons(): Record<string, { singleton: true; requiredVersion: string }>;
export declare const federationDefaults: { dts: false; shareStrategy: 'loaded-first' };
/** A page an area ships (the shell's route table is built from these at boot). */
export type AreaRoute = {
  /** Unique across the shop. */
  name: string;
  /** React Router path: static segments and :params. */
  path: string;
  /** The exposed module that renders it. */
  module: string;
  layout: 'default' | 'checkout' | 'account';
  /** The step needs a non-empty basket (otherwise the shopper goes to the basket). */
  requiresBasket?: true;
  /** A guest is sent to sign in first. */
  requiresSignIn?: true;
  /** No consent notice and no analytics. */
  noConsent?: true;
};
export declare function areaMetaPlugin(options: { area: string; exposes: Record<string, string>; routes: AreaRoute[] }): Plugin;
export declare function areaViteConfig(options: {
  area: string;
  exposes: Record<string, string>;
  routes: AreaRoute[];
  devPort: number;
  react: (...args: never[]) => unknown;
  federation: (options: never) => unknown;
}): UserConfig;
