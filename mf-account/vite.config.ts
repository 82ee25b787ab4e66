import { fileURLToPath } from 'node:url';
import { build, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig, type AreaRoute } from '@shop/shared-kernel/federation';
// By path: Vite's config loader leaves workspace packages (TypeScript sources) to Node, which cannot load them.
// eslint-disable-next-line no-restricted-imports -- the pages other parts link to: their paths are the kernel contract's
import { shopRoutePatterns as paths } from '../shared-kernel/src/contract/shop-paths.ts';

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
  { name: 'account-login', path: paths.signIn, module: './LoginPage', layout: 'account' },
  { name: 'account-profile', path: paths.profile, module: './ProfilePage', layout: 'account', requiresSignIn: true },
  { name: 'account-register', path: paths.register, module: './RegisterPage', layout: 'account' },
  { name: 'account-password-reset', path: paths.passwordReset, module: './PasswordResetPage', layout: 'account' },
  { name: 'account-address', path: paths.addresses, module: './AddressPage', layout: 'account', requiresSignIn: true },
  { name: 'account-orders', path: paths.orders, module: './OrdersPage', layout: 'account', requiresSignIn: true },
  { name: 'account-order', path: paths.order, module: './OrderDetailPage', layout: 'account', requiresSignIn: true },
  { name: 'account-complaints', path: paths.complaints, module: './ComplaintsPage', layout: 'account', requiresSignIn: true },
];

export default defineConfig(
  areaViteConfig({
    area: 'account',
    exposes,
    routes,
    devPort: 5103,
    react,
    federation,
    viteBuild: build,
    root: fileURLToPath(new URL('.', import.meta.url)),
  }),
);
