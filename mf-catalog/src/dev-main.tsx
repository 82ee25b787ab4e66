// Standalone development harness: this area's pages without the shell
// (`pnpm --filter @shop/mf-catalog dev`, with `npm start` running for the API).
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { initKernel } from '@shop/shared-kernel';
import HomePage from './pages/home-page.tsx';
import CategoryPage from './pages/category-page.tsx';
import ProductPage from './pages/product-page.tsx';
import BrandPage from './pages/brand-page.tsx';
import SalePage from './pages/sale-page.tsx';
import SearchPage from './pages/search-page.tsx';

void initKernel();
const router = createBrowserRouter([
  { path: '/', Component: HomePage },
  { path: '/c/:category', Component: CategoryPage },
  { path: '/p/:product', Component: ProductPage },
  { path: '/b/:brand', Component: BrandPage },
  { path: '/vypredaj', Component: SalePage },
  { path: '/search/:search', Component: SearchPage },
]);
createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />);
