/** Temporary directories removed after each test, and a small but complete checkout build for the release tests. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory under the system's temp directory, removed after the test. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/**
 * A checkout build as Vite and the federation plugin lay one out; `marker` makes its version differ,
 * `react` is the React it records having been built with (none when undefined).
 */
export function checkoutBuild(marker: string, react?: string): string {
  const dir = tempDir('build-checkout-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'remoteEntry.js'), 'export const area = "checkout";');
  writeFileSync(join(dir, 'assets', 'page.js'), `export default ${JSON.stringify(marker)};`);
  const routes = [{ name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'default' }];
  writeFileSync(
    join(dir, 'area.json'),
    JSON.stringify({ area: 'checkout', kernel: '1.0.0', react, exposes: ['./CartPage'], entry: 'remoteEntry.js', routes }),
  );
  writeFileSync(
    join(dir, 'mf-manifest.json'),
    JSON.stringify({
      name: 'checkout',
      metaData: { remoteEntry: { name: 'remoteEntry.js' } },
      exposes: [{ name: 'CartPage', assets: { js: { sync: ['assets/page.js'], async: [] } } }],
      shared: [],
    }),
  );
  return dir;
}
