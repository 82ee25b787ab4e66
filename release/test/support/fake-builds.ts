/** Small but complete builds of an area or the shell, as Vite and the federation plugin lay them out. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.ts';

// Every build made here is removed after the test file that made it (temp-dirs.ts).

type FakeRoute = { name: string; path: string; module: string; layout: string; [flag: string]: unknown };

/** The checkout's basket page, the one route the release tests' checkout builds declare. */
export const cartRoute: FakeRoute = { name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'checkout' };

/** One route per exposed module, named and placed after the area and module unless given. */
const defaultRoutes = (area: string, exposes: string[]): FakeRoute[] =>
  exposes.map((module) => {
    const slug = module
      .replace('./', '')
      .replace(/([a-z])([A-Z])/g, '$1-$2')
      .toLowerCase();
    return { name: `${area}-${slug}`, path: `/${area}/${slug}`, module, layout: 'default' };
  });

export function fakeAreaBuild(
  area: string,
  options: {
    kernel?: string;
    /** The React the build records having been built with (none when undefined). */
    react?: string;
    exposes?: string[];
    marker?: string;
    pageBytes?: number;
    routes?: FakeRoute[];
  } = {},
): string {
  const dir = tempDir(`build-${area}-`);
  const exposes = options.exposes ?? ['./CartPage'];
  const routes = options.routes ?? defaultRoutes(area, exposes);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'remoteEntry.js'), `export const area = ${JSON.stringify(area)};`);
  writeFileSync(
    join(dir, 'assets', 'page.js'),
    `export default ${JSON.stringify(options.marker ?? 'v1')};${'/*x*/'.repeat(options.pageBytes ?? 0)}`,
  );
  writeFileSync(
    join(dir, 'area.json'),
    JSON.stringify({ area, kernel: options.kernel ?? '1.0.0', react: options.react, exposes, entry: 'remoteEntry.js', routes }),
  );
  writeFileSync(
    join(dir, 'mf-manifest.json'),
    JSON.stringify({
      name: area,
      metaData: { remoteEntry: { name: 'remoteEntry.js' } },
      exposes: exposes.map((name) => ({ name: name.replace('./', ''), assets: { js: { sync: ['assets/page.js'], async: [] } } })),
      shared: [],
    }),
  );
  return dir;
}

export function fakeShellBuild(requires: Record<string, string[]> = {}, options: { kernel?: string } = {}): string {
  const dir = tempDir('build-shell-');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>shop</title><!--shop-config-->');
  writeFileSync(join(dir, 'routes.json'), JSON.stringify({ kernel: options.kernel ?? '1.0.0', requires }));
  return dir;
}
