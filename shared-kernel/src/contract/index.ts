export type * from './common.ts';
export type * from './catalog-types.ts';
export type * from './content-types.ts';
export type * from './checkout-types.ts';
export type * from './account-types.ts';
export type * from './release-types.ts';
export type * from './telemetry-types.ts';
export type * from './backup-types.ts';
export type * from './csp-types.ts';
export type * from './render-failure-types.ts';
export type * from './api.ts';
export type { CheckoutLineInput, QuoteBody, PlaceOrderBody } from './checkout-calls.ts';
export type * from './registry.ts';
export type * from './shell-server.ts';
// Values without TypeBox (a page may import them): the parts, the layouts, the shop's paths.
export { AREAS, PARTS, LAYOUTS, isArea, isPart, isLayout, partFolder } from './parts.ts';
export type { AreaName, PartName, LayoutName } from './parts.ts';
export { REGISTRY_PATH } from './registry.ts';
export { shopPaths, shopRoutePatterns } from './shop-paths.ts';
