// Standalone development harness: this area's pages without the shell.
import { createRoot } from 'react-dom/client';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import { initKernel } from '@shop/shared-kernel';
import LoginPage from './pages/login-page.tsx';
import ProfilePage from './pages/profile-page.tsx';
import RegisterPage from './pages/register-page.tsx';
import PasswordResetPage from './pages/password-reset-page.tsx';
import AddressPage from './pages/address-page.tsx';
import OrdersPage from './pages/orders-page.tsx';
import OrderDetailPage from './pages/order-detail-page.tsx';
import ComplaintsPage from './pages/complaints-page.tsx';

void initKernel();
const router = createStandaloneRouter([
  { path: '/account/login', element: <LoginPage /> },
  { path: '/account/profile', element: <ProfilePage /> },
  { path: '/account/register', element: <RegisterPage /> },
  { path: '/account/password-reset', element: <PasswordResetPage /> },
  { path: '/account/address', element: <AddressPage /> },
  { path: '/account/orders', element: <OrdersPage /> },
  { path: '/account/orders/:ordertoken', element: <OrderDetailPage /> },
  { path: '/account/complaints', element: <ComplaintsPage /> },
], { history: 'browser' });
createRoot(document.getElementById('root')!).render(<StandaloneRoutes router={router} />);
