import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig } from '@shop/shared-kernel/federation';

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

export default defineConfig(areaViteConfig({ area: 'account', exposes, devPort: 5103, react, federation }));
