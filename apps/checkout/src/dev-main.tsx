// Standalone development harness: this area's pages without the shell.
import { createRoot } from 'react-dom/client';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import { initKernel } from '@shop/shared-kernel';
import CartPage from './pages/cart-page.tsx';

void initKernel();
const router = createStandaloneRouter([{ path: '/checkout/cart', element: <CartPage /> }]);
createRoot(document.getElementById('root')!).render(<StandaloneRoutes router={router} />);
