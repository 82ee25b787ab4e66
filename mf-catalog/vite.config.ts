import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig } from '@shop/shared-kernel/federation';

// The catalogue area's public face: one exposed module per page.
export const exposes = {
  './HomePage': './src/pages/home-page.tsx',
  './CategoryPage': './src/pages/category-page.tsx',
  './ProductPage': './src/pages/product-page.tsx',
  './BrandPage': './src/pages/brand-page.tsx',
  './SalePage': './src/pages/sale-page.tsx',
  './SearchPage': './src/pages/search-page.tsx',
};

export default defineConfig(areaViteConfig({ area: 'catalog', exposes, devPort: 5101, react, federation }));
