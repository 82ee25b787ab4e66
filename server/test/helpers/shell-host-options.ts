/**
 * The page host's options as the tests mount it: the areas from a CDN's origin, no tag manager, the
 * registry read again once a minute, every page load reporting, the shop at https://shop.example.
 * A test names where its releases live and how their signatures are checked (`integrity`: null only
 * for unsigned builds), and anything it sets otherwise. The test mounts the host itself, with
 * `shellHost(app, …)` or `app.register(shellHost, …)` as the test needs it.
 */
import type { ShellHostOptions } from '../../src/web/shell-host.ts';

export function shellHostOptions(options: Pick<ShellHostOptions, 'storage' | 'integrity'> & Partial<ShellHostOptions>): ShellHostOptions {
  return {
    assetOrigin: 'https://cdn.example',
    gtmId: null,
    registryPollMs: 60_000,
    telemetrySample: 1,
    publicUrl: 'https://shop.example',
    ...options,
  };
}
