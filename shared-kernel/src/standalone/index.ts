/**
 * '@shop/shared-kernel/standalone': routing for an area's pages outside the
 * shell (component tests, the standalone dev harness). Not part of the
 * federated kernel: the shell provides routing itself.
 */
export { createStandaloneRouter, matchPath, StandaloneRoutes, StandaloneRouting } from './standalone-router.tsx';
export type { StandaloneRoute, StandaloneRouter } from './standalone-router.tsx';
