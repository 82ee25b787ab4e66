import { fileURLToPath } from 'node:url';
import { build, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig, type AreaRoute } from '@shop/shared-kernel/federation';

// The account area's public face: one exposed module per page.
export const exposes = {
  './LoginPage': './src/pages/login-page.tsx',
  './ProfilePage': './src/pages/profile-page.tsx',
  './RegisterPage': './src/pages/register-page.tsx',
  './PasswordResetPage': './src/pages/password-reset-page.tsx',
  './AddressPage': './src/pages/address-page.tsx',
  './OrdersPage': './src/pages/orders-page.tsx',
  './OrderDetailPage': './src/pages/order-detail-page.tsx',
  './ComplaintsPage': './src/pages/complaints-page.tsx',
};

// The pages this area ships: the shell builds its route table from the areas in force, so a
// deploy of this area alone adds, changes or removes them (checked against the other areas' routes).
export const routes: AreaRoute[] = [
  { name: 'account-login', path: '/account/login', module: './LoginPage', layout: 'account' },
  { name: 'account-profile', path: '/account/profile', module: './ProfilePage', layout: 'account', requiresSignIn: true },
  { name: 'account-register', path: '/account/register', module: './RegisterPage', layout: 'account' },
  { name: 'account-password-reset', path: '/account/password-reset', module: './PasswordResetPage', layout: 'account' },
  { name: 'account-address', path: '/account/address', module: './AddressPage', layout: 'account', requiresSignIn: true },
  { name: 'account-orders', path: '/account/orders', module: './OrdersPage', layout: 'account', requiresSignIn: true },
  { name: 'account-order', path: '/account/orders/:ordertoken', module: './OrderDetailPage', layout: 'account', requiresSignIn: true },
  { name: 'account-complaints', path: '/account/complaints', module: './ComplaintsPage', layout: 'account', requiresSignIn: true },
];

export default defineConfig(areaViteConfig({ area: 'account', exposes, routes, devPort: 5103, react, federation, viteBuild: build, root: fileURLToPath(new URL('.', import.meta.url)) }));
