import { fileURLToPath } from 'node:url';
import { build, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig, type AreaRoute } from '@shop/shared-kernel/federation';
// By path: Vite's config loader leaves workspace packages (TypeScript sources) to Node, which cannot load them.
// eslint-disable-next-line no-restricted-imports -- the pages other parts link to: their paths are the kernel contract's
import { shopRoutePatterns as paths } from '../shared-kernel/src/contract/shop-paths.ts';

// The catalog area's public face: one exposed module per page.
export const exposes = {
  './HomePage': './src/pages/home-page.tsx',
  './CategoryPage': './src/pages/category-page.tsx',
  './ProductPage': './src/pages/product-page.tsx',
  './BrandPage': './src/pages/brand-page.tsx',
  './SalePage': './src/pages/sale-page.tsx',
  './SearchPage': './src/pages/search-page.tsx',
};

// The pages this area ships: the shell builds its route table from the areas in force, so a
// deploy of this area alone adds, changes or removes them (checked against the other areas' routes).
export const routes: AreaRoute[] = [
  { name: 'home', path: paths.home, module: './HomePage', layout: 'default', serverRender: true },
  { name: 'category', path: paths.category, module: './CategoryPage', layout: 'default', serverRender: true },
  { name: 'product', path: paths.product, module: './ProductPage', layout: 'default', serverRender: true },
  { name: 'brand', path: paths.brand, module: './BrandPage', layout: 'default', serverRender: true },
  { name: 'sale', path: paths.sale, module: './SalePage', layout: 'default', serverRender: true },
  { name: 'search', path: paths.search, module: './SearchPage', layout: 'default', serverRender: true },
  // A search for nothing (/search/) says what to type instead of "page not found".
  { name: 'search-empty', path: paths.searchEmpty, module: './SearchPage', layout: 'default', serverRender: true },
];

export default defineConfig(
  areaViteConfig({
    area: 'catalog',
    exposes,
    routes,
    devPort: 5101,
    react,
    federation,
    viteBuild: build,
    root: fileURLToPath(new URL('.', import.meta.url)),
    // The listing (filters, pages, counts) only the category, brand, sale and search pages use:
    // kept apart from the code every page loads, so the home and product pages do not fetch it.
    chunkGroups: [{ name: 'listing', test: /\/mf-catalog\/src\/(listing\/|components\/product-listing)|\/rules\/pagination\.ts$/ }],
  }),
);
