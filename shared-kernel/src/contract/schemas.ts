/**
 * The contract's schemas as values, for the server (validation, serialisation, OpenAPI).
 * Browser code imports types from '@shop/shared-kernel/contract' instead, so no schema
 * (and no TypeBox) is bundled into a page.
 */
export * from './common.ts';
export * from './catalog-types.ts';
export * from './content-types.ts';
export * from './checkout-types.ts';
export * from './account-types.ts';
export * from './release-types.ts';
export * from './telemetry-types.ts';
export * from './csp-types.ts';
export * from './render-failure-types.ts';
export { KERNEL_VERSION } from '../singleton/version.ts';
export { contentCalls } from './content-calls.ts';
export { catalogCalls } from './catalog-calls.ts';
export { BRANDS_LENGTH, LISTING_LIMITS, MULTI_VALUE_LENGTH, SEARCH_LIMITS } from './catalog-limits.ts';
export { accountCalls } from './account-calls.ts';
export {
  checkoutCalls,
  OrderToken,
  BASKET_LIMITS,
  PICKUP_POINT_LIMITS,
  CheckoutLineInput,
  QuoteBody,
  PlaceOrderBody,
} from './checkout-calls.ts';
export { opsCalls } from './ops-calls.ts';
