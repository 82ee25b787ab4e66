import { defineConfig } from 'vitest/config';

/**
 * The multi-server tests: real processes (two web servers, two workers) behind nginx on PostgreSQL
 * and Redis, started once by global-setup.mjs from the built server (api/dist), as `npm run
 * start:cluster` runs them. `npm test` runs them after the build.
 */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['./global-setup.mjs'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
