/**
 * '@shop/shared-kernel/testing': helpers for the parts' tests (never imported by a page): a fake
 * fetch to hand the kernel's client (`configureApi({ fetch })`), and ready-made basket and
 * sign-in fixtures.
 */
export * from './fake-fetch.ts';
export * from './fixtures.ts';
