import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import base, { SHOP_PORT } from './playwright.config.ts';

/** The cluster's data directory: its release origin, secrets and cluster.json (removed when it stops). */
export const CLUSTER_DATA_DIR = join(import.meta.dirname, `.data-cluster-${SHOP_PORT}`);

/**
 * The end-to-end tests on the cluster (cluster/*.spec.ts): the same browser and settings as the
 * single-server tests, against nginx on E2E_PORT in front of two web servers and a worker on
 * PostgreSQL and Redis (cluster/serve-cluster.mjs). `npx playwright test -c playwright.cluster.config.ts`.
 */
export default defineConfig({
  ...base,
  testDir: './cluster',
  testMatch: '**/*.spec.ts',
  testIgnore: [],
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/e2e-cluster.json' }]],
  webServer: {
    command: 'node cluster/serve-cluster.mjs',
    // Ready once the script says so (it has written cluster.json): nginx answers a moment earlier.
    wait: { stdout: /\[e2e cluster\] nginx on / },
    // PostgreSQL, Redis, the release and four processes, on a busy machine.
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    // SIGTERM, not SIGKILL: the script stops nginx, the servers and the databases and removes their directories.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 60_000 },
    env: { E2E_PORT: String(SHOP_PORT), E2E_CLUSTER_DATA_DIR: CLUSTER_DATA_DIR },
  },
});
