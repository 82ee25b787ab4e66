// Standalone development harness: this area's pages without the shell.
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { initKernel } from '@shop/shared-kernel';
import CartPage from './pages/cart-page.tsx';

void initKernel();
const router = createBrowserRouter([{ path: '/checkout/cart', Component: CartPage }]);
createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />);
