import { defineConfig } from 'vitest/config';

/** `<group>/<name>`: the files are grouped by what they test, as the source is. */
const testFile = (name: string) => `test/${name}.test.ts`;

/**
 * Test files that never open the database (the release tooling and its storage, the file store,
 * pure functions, the shell host on prepared builds): the PostgreSQL pass of `npm test`
 * (DATABASE_URL set) leaves them out, as they ran on the SQLite pass and would only repeat it.
 */
export const DATABASE_FREE = [
  'web/consent-frame',
  'operators/credentials-help',
  'platform/file-store',
  'web/html',
  'ops/ops',
  'web/page-cache',
  'catalog/product-image',
  'releases/release-canary-preview',
  'releases/release-package',
  'releases/release-web-s3',
  'releases/release-web',
  'web/route-preload',
  'content/sanitize',
].map(testFile);

/**
 * Test files that open the database only to have a shop to ask, whose subject is HTTP, HTML, headers,
 * the contract or released files, never what SQL or a transaction does: the PostgreSQL pass leaves
 * them out too. Every file about queries, writes, races, the outbox, migrations, the audit log or the
 * registry in force runs on both engines.
 */
export const ENGINE_NEUTRAL = [
  'web/compression',
  'platform/contract',
  'platform/errors',
  'web/first-view-picture',
  'platform/fuzz',
  'ops/monitoring',
  'ops/observability',
  'releases/release-bytes-cdn-and-bombs',
  'releases/release-bytes-shop-origin',
  'releases/release-bytes-tampered',
  'web/route-data',
  'web/security-headers',
  'web/seo',
  'account/session-cookie',
  'platform/timeouts',
].map(testFile);

/**
 * Test files that replace a module with vi.mock (the shell's module source): they run each in a
 * fresh module graph. Every other file shares its worker's modules (isolate: false), so the server's
 * few hundred modules are loaded once per worker, not once per file.
 */
const OWN_MODULES = ['web/first-view-picture', 'web/route-data'].map(testFile);

const excluded = process.env.DATABASE_URL ? [...DATABASE_FREE, ...ENGINE_NEUTRAL] : [];

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 120_000,
    setupFiles: ['test/helpers/per-file.ts'],
    // One migrated and seeded database that every test shop copies (test/helpers/database-template.ts).
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'shared-modules', include: ['test/**/*.test.ts'], exclude: [...excluded, ...OWN_MODULES], isolate: false },
      },
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES, exclude: excluded, isolate: true } },
    ],
  },
});
