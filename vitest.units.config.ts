import { defineConfig } from 'vitest/config';

/**
 * The shell's test files that replace a module with vi.mock: each runs in a fresh module graph.
 * Every other browser test file shares its worker's modules and jsdom (isolate: false), so React,
 * the kernel and jsdom are loaded once per worker, not once per file.
 */
const SHELL_OWN_MODULES = [
  'app/route-branch.test.tsx',
  'areas/area-loader.test.ts',
  'areas/area-route.test.tsx',
  'areas/preload.test.tsx',
].map((file) => `src/${file}`);

/**
 * Every package's unit tests in one run (`npm test`): one worker pool for all of them, so both
 * cores stay busy across packages instead of each package's run starting and ending on its own.
 * Each project keeps its own settings (environment, setup files, time zone). The server's tests
 * (API, multi-server) are not units: they run on their own, on each database engine.
 */
export default defineConfig({
  test: {
    projects: [
      'shared-kernel/vitest.config.ts',
      'release/vitest.config.ts',
      'tools/*/vitest.config.ts',
      // The areas keep their test settings in their Vite config (shared-kernel/build/federation.mjs).
      'mf-*/vite.config.ts',
      {
        extends: './shell/vite.config.ts',
        root: './shell',
        test: {
          name: '@shop/shell',
          isolate: false,
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', ...SHELL_OWN_MODULES],
        },
      },
      {
        extends: './shell/vite.config.ts',
        root: './shell',
        test: { name: '@shop/shell (own modules)', isolate: true, include: SHELL_OWN_MODULES },
      },
    ],
  },
});
