// Standalone development harness: this area's pages without the shell.
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
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
const router = createBrowserRouter([
  { path: '/account/login', Component: LoginPage },
  { path: '/account/profile', Component: ProfilePage },
  { path: '/account/register', Component: RegisterPage },
  { path: '/account/password-reset', Component: PasswordResetPage },
  { path: '/account/address', Component: AddressPage },
  { path: '/account/orders', Component: OrdersPage },
  { path: '/account/orders/:ordertoken', Component: OrderDetailPage },
  { path: '/account/complaints', Component: ComplaintsPage },
]);
createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />);
