import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig } from '@shop/shared-kernel/federation';

// The checkout area's public face: one exposed module per page.
export const exposes = {
  './CartPage': './src/pages/cart-page.tsx',
  './ContactPage': './src/pages/contact-page.tsx',
  './OrderPage': './src/pages/order-page.tsx',
  './ThankYouPage': './src/pages/thank-you-page.tsx',
  './PaymentPage': './src/pages/payment-page.tsx',
  './OperatorPage': './src/pages/operator-page.tsx',
};

export default defineConfig(areaViteConfig({ area: 'checkout', exposes, devPort: 5102, react, federation }));
