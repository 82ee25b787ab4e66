export type * from './common.ts';
export type * from './catalog-types.ts';
export type * from './content-types.ts';
export type * from './checkout-types.ts';
export type * from './account-types.ts';
export type * from './release-types.ts';
export type * from './telemetry-types.ts';
export type * from './api.ts';
export type { CheckoutLineInput, QuoteBody, PlaceOrderBody } from './checkout-calls.ts';
