/**
 * '@shop/shared-kernel/rules': the pure, React-free business rules, for the
 * Node API and for any code that must not pull in the stores.
 */
export * from './money.ts';
export * from './format.ts';
export * from './numeric-input.ts';
export * from './pagination.ts';
export * from './opening-hours.ts';
export * from './variant-word.ts';
export * from './random-string.ts';
export * from './version.ts';
export * from './checkout-rules.ts';
export * from './contact-message-rules.ts';
export * from './account-rules.ts';
export * from './consent-rules.ts';
export * from './telemetry-rules.ts';
export * from './search-rules.ts';
