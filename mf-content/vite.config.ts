import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig } from '@shop/shared-kernel/federation';

// The content area's public face: one exposed module per page.
export const exposes = {
  './StaticPage': './src/pages/static-page.tsx',
  './BlogPage': './src/pages/blog-page.tsx',
  './BlogPostPage': './src/pages/blog-post-page.tsx',
  './ShippingPaymentPage': './src/pages/shipping-payment-page.tsx',
  './ContactPage': './src/pages/contact-page.tsx',
  './LoyaltyPage': './src/pages/loyalty-page.tsx',
};

export default defineConfig(areaViteConfig({ area: 'content', exposes, devPort: 5104, react, federation }));
