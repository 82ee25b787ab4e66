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
import { shopRoutePatterns as paths } from '@shop/shared-kernel/contract';

void initKernel();
const router = createStandaloneRouter(
  [
    { path: paths.signIn, element: <LoginPage /> },
    { path: paths.profile, element: <ProfilePage /> },
    { path: paths.register, element: <RegisterPage /> },
    { path: paths.passwordReset, element: <PasswordResetPage /> },
    { path: paths.addresses, element: <AddressPage /> },
    { path: paths.orders, element: <OrdersPage /> },
    { path: paths.order, element: <OrderDetailPage /> },
    { path: paths.complaints, element: <ComplaintsPage /> },
  ],
  { history: 'browser' },
);
createRoot(document.getElementById('root')!).render(<StandaloneRoutes router={router} />);
