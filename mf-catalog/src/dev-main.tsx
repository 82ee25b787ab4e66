// Standalone development harness: this area's pages without the shell
// (`pnpm --filter @shop/mf-catalog dev`, with `npm start` running for the API).
import { createRoot } from 'react-dom/client';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import { initKernel } from '@shop/shared-kernel';
import HomePage from './pages/home-page.tsx';
import CategoryPage from './pages/category-page.tsx';
import ProductPage from './pages/product-page.tsx';
import BrandPage from './pages/brand-page.tsx';
import SalePage from './pages/sale-page.tsx';
import SearchPage from './pages/search-page.tsx';
import { shopRoutePatterns as paths } from '@shop/shared-kernel/contract';

void initKernel();
const router = createStandaloneRouter(
  [
    { path: paths.home, element: <HomePage /> },
    { path: paths.category, element: <CategoryPage /> },
    { path: paths.product, element: <ProductPage /> },
    { path: paths.brand, element: <BrandPage /> },
    { path: paths.sale, element: <SalePage /> },
    { path: paths.search, element: <SearchPage /> },
  ],
  { history: 'browser' },
);
createRoot(document.getElementById('root')!).render(<StandaloneRoutes router={router} />);
