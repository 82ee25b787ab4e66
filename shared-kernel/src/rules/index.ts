/**
 * '@shop/shared-kernel/rules': the pure, React-free business rules (money,
 * formatting, pagination, opening hours, validation, Slovak messages, the
 * readers of the basket and the signed-in state). Not shared by Module
 * Federation: every part (and the Node API) bundles what it uses. Nothing
 * here holds state; the stores that do are in '@shop/shared-kernel'.
 */
export * from './money.ts';
export * from './format.ts';
export * from './numeric-input.ts';
export * from './pagination.ts';
export * from './opening-hours.ts';
export * from './variant-word.ts';
export * from './plural.ts';
export * from './random-string.ts';
export * from '../singleton/version.ts';
export * from './checkout-rules.ts';
export * from './order-totals.ts';
export * from './contact-message-rules.ts';
export * from './account-rules.ts';
export * from './consent-rules.ts';
export * from './page-policy-rules.ts';
export * from './telemetry-rules.ts';
export * from './client-stack.ts';
export * from './search-rules.ts';
export * from './basket-rules.ts';
export * from './basket-cookie.ts';
export * from './auth-token.ts';
export * from './commerce-item.ts';
export * from './release-rules.ts';
export * from './flag-rules.ts';
export * from './boot-preload.ts';
export * from './image-rules.ts';
export * from './redirect-rules.ts';
export { isNotFound } from '../singleton/errors.ts';
export { keyOf } from './call-key.ts';
