import { fileURLToPath } from 'node:url';
import { build, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig, type AreaRoute } from '@shop/shared-kernel/federation';
// By path: Vite's config loader leaves workspace packages (TypeScript sources) to Node, which cannot load them.
// eslint-disable-next-line no-restricted-imports -- the pages other parts link to: their paths are the kernel contract's
import { shopRoutePatterns as paths } from '../shared-kernel/src/contract/shop-paths.ts';

// The checkout area's public face: one exposed module per page.
export const exposes = {
  './CartPage': './src/pages/cart-page.tsx',
  './ContactPage': './src/pages/contact-page.tsx',
  './OrderPage': './src/pages/order-page.tsx',
  './ThankYouPage': './src/pages/thank-you-page.tsx',
  './PaymentPage': './src/pages/payment-page.tsx',
};

// The pages this area ships: the shell builds its route table from the areas in force, so a
// deploy of this area alone adds, changes or removes them (checked against the other areas' routes).
export const routes: AreaRoute[] = [
  // Server-rendered as a frame the same for every shopper; the basket's lines fill it in the browser.
  { name: 'checkout-cart', path: paths.cart, module: './CartPage', layout: 'checkout', serverRender: true },
  { name: 'checkout-contact', path: paths.checkoutContact, module: './ContactPage', layout: 'checkout', requiresBasket: true },
  { name: 'checkout-order', path: paths.checkoutOrder, module: './OrderPage', layout: 'checkout', requiresBasket: true },
  { name: 'checkout-thankyou', path: paths.thankYou, module: './ThankYouPage', layout: 'checkout' },
  { name: 'payment-pending', path: paths.paymentPending, module: './PaymentPage', layout: 'checkout' },
  { name: 'payment-success', path: paths.paymentSuccess, module: './PaymentPage', layout: 'checkout' },
  { name: 'payment-cancelled', path: paths.paymentCancelled, module: './PaymentPage', layout: 'checkout' },
  // The utility routes of the operator's document tools (requirements R2.2: /pdf, /generate, /email,
  // /send, /paid) are the operator console's, on the operator origin: the shop's server sends them
  // there (server/src/web/operator-links.ts), so no area code runs where an operator acts.
];

export default defineConfig(
  areaViteConfig({
    area: 'checkout',
    exposes,
    routes,
    devPort: 5102,
    react,
    federation,
    viteBuild: build,
    root: fileURLToPath(new URL('.', import.meta.url)),
  }),
);
