import { defineConfig } from 'vitest/config';

/**
 * Test files that never open the database (the release tooling and its storage, the file store,
 * pure functions, the shell host on prepared builds): the PostgreSQL pass of `npm test`
 * (DATABASE_URL set) leaves them out, as they ran on the SQLite pass and would only repeat it.
 */
export const DATABASE_FREE = [
  'consent-frame',
  'credentials-help',
  'file-store',
  'html',
  'ops',
  'page-cache',
  'product-image',
  'release-package',
  'release-storage',
  'release-web-s3',
  'release-web',
  'release',
  'route-preload',
  'sanitize',
].map((name) => `test/${name}.test.ts`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: process.env.DATABASE_URL ? DATABASE_FREE : [],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 120_000,
  },
});
