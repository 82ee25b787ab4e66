import { defineConfig } from 'vitest/config';

// Everything here runs without a database; the tests that need the API's (signed uploads,
// identities, the server's pages) stay in server/test. The test support (test/support/) is
// shared with the server's tests as `@shop/release/testing`.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    setupFiles: ['test/support/per-file.ts'],
    testTimeout: 20_000,
  },
});
