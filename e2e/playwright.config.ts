import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

export const SHOP_PORT = Number(process.env.E2E_PORT ?? 4310);
export const ASSET_PORT = SHOP_PORT + 1;
/** Each run (port) has its own data directory, so runs can go side by side. */
export const E2E_DATA_DIR = join(import.meta.dirname, `.data-${SHOP_PORT}`);

/**
 * The specs that change what the shop serves every browser: they deploy, roll back, pin, run
 * canaries, switch features, tamper with released files or stop the asset origin. `npm test` runs
 * them on a shop of their own (E2E_SPECS=releases) beside the others (E2E_SPECS=shop) on another
 * port, so a test that reads the shop never meets another's release; unset, one run takes all.
 */
export const RELEASE_SPECS = [
  'canary-commerce',
  'canary-speed',
  'canonical-paths',
  'feature-flags',
  'integrity',
  'load-recovery',
  'navigation',
  'operator-origin',
  'release-canary',
  'release-client-errors',
  'release-console',
  'release-new-page',
  'release-override',
  'release-rollbacks',
  'render-sandbox',
  'server-render',
].map((name) => `**/${name}.spec.ts`);
const specs = process.env.E2E_SPECS;
if (specs !== undefined && specs !== 'releases' && specs !== 'shop') throw new Error(`E2E_SPECS is releases or shop, not ${specs}`);

/**
 * Chromium applies only the last `--disable-features`, and Playwright passes its own before ours:
 * so ours repeats Playwright's list (playwright-core's chromiumSwitches, for the pinned version
 * below) and adds what a test browser never needs. Since Chromium 15x every browser context is a
 * window that loads two WebUI omnibox popups in renderers of their own (chrome://omnibox-popup),
 * about a third of Chromium's CPU across the e2e tests on this machine (tools/bench/results.md).
 */
const PLAYWRIGHT_VERSION = '1.65.1';
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];
const installed = (createRequire(import.meta.url)('@playwright/test/package.json') as { version: string }).version;
if (installed !== PLAYWRIGHT_VERSION)
  throw new Error(
    `Playwright ${installed}: copy its disabled Chromium features into e2e/playwright.config.ts, then set PLAYWRIGHT_VERSION`,
  );

// Debian's chromium, never a downloaded browser.
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'].join(',')}`,
];

export default defineConfig({
  testDir: './tests',
  testMatch: specs === 'releases' ? RELEASE_SPECS : '**/*.spec.ts',
  testIgnore: specs === 'shop' ? RELEASE_SPECS : [],
  // Per port: runs side by side never clear each other's output.
  outputDir: `test-results/${SHOP_PORT}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://localhost:${SHOP_PORT}`,
    locale: 'sk-SK',
    timezoneId: 'Europe/Bratislava',
    viewport: { width: 390, height: 844 },
    trace: 'off',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
  },
  webServer: {
    // Publishes the current builds to a fresh origin and starts the server on a fresh database.
    command: `node serve.mjs`,
    url: `http://localhost:${SHOP_PORT}/api/site`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: { E2E_PORT: String(SHOP_PORT), E2E_DATA_DIR },
  },
});
