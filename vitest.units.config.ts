import { defineConfig } from 'vitest/config';

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
      // The browser parts keep their test settings in their Vite config: every area (mf-*) and the shell.
      'mf-*/vite.config.ts',
      'shell/vite.config.ts',
    ],
  },
});
