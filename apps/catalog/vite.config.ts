import { fileURLToPath } from 'node:url';
import { build, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig, type AreaRoute } from '@shop/shared-kernel/federation';

// The catalogue area's public face: one exposed module per page.
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
  { name: 'home', path: '/', module: './HomePage', layout: 'default', serverRender: true },
  { name: 'category', path: '/c/:category', module: './CategoryPage', layout: 'default', serverRender: true },
  { name: 'product', path: '/p/:product', module: './ProductPage', layout: 'default', serverRender: true },
  { name: 'brand', path: '/b/:brand', module: './BrandPage', layout: 'default', serverRender: true },
  { name: 'sale', path: '/vypredaj', module: './SalePage', layout: 'default', serverRender: true },
  { name: 'search', path: '/search/:search', module: './SearchPage', layout: 'default', serverRender: true },
  // A search for nothing (/search/) says what to type instead of "page not found".
  { name: 'search-empty', path: '/search', module: './SearchPage', layout: 'default', serverRender: true },
];

export default defineConfig(areaViteConfig({ area: 'catalog', exposes, routes, devPort: 5101, react, federation, viteBuild: build, root: fileURLToPath(new URL('.', import.meta.url)) }));
