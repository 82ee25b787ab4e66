import { fileURLToPath } from 'node:url';
import { build, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig, type AreaRoute } from '@shop/shared-kernel/federation';
// By path: Vite's config loader leaves workspace packages (TypeScript sources) to Node, which cannot load them.
// eslint-disable-next-line no-restricted-imports -- the pages other parts link to: their paths are the kernel contract's
import { shopRoutePatterns as paths } from '../shared-kernel/src/contract/shop-paths.ts';

// The content area's public face: one exposed module per page.
export const exposes = {
  './StaticPage': './src/pages/static-page.tsx',
  './BlogPage': './src/pages/blog-page.tsx',
  './BlogPostPage': './src/pages/blog-post-page.tsx',
  './ShippingPaymentPage': './src/pages/shipping-payment-page.tsx',
  './ContactPage': './src/pages/contact-page.tsx',
  './LoyaltyPage': './src/pages/loyalty-page.tsx',
};

// The pages this area ships: the shell builds its route table from the areas in force, so a
// deploy of this area alone adds, changes or removes them (checked against the other areas' routes).
export const routes: AreaRoute[] = [
  { name: 'site', path: paths.page, module: './StaticPage', layout: 'default', serverRender: true },
  { name: 'contact', path: paths.contact, module: './ContactPage', layout: 'default', serverRender: true },
  { name: 'loyalty', path: paths.loyalty, module: './LoyaltyPage', layout: 'default' },
  { name: 'blog', path: paths.blog, module: './BlogPage', layout: 'default', serverRender: true },
  { name: 'blog-tag', path: paths.blogTag, module: './BlogPage', layout: 'default', serverRender: true },
  { name: 'blog-post', path: paths.blogPost, module: './BlogPostPage', layout: 'default', serverRender: true },
  { name: 'shipping-payment', path: paths.shippingPayment, module: './ShippingPaymentPage', layout: 'default', serverRender: true },
];

export default defineConfig(
  areaViteConfig({
    area: 'content',
    exposes,
    routes,
    devPort: 5104,
    react,
    federation,
    viteBuild: build,
    root: fileURLToPath(new URL('.', import.meta.url)),
  }),
);
