import { defineConfig } from 'vitest/config';

// Everything here runs without a database; the tests that need the API's (signed uploads,
// identities, the server's pages) stay in api/test.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
  },
});
