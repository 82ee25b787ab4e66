/**
 * The data of the checkout area's server-rendered routes (the route names of vite.config.ts). The
 * basket lives in the browser's storage; its cookie mirrors each line's id and amount to the
 * basket's page, so the server renders the shopper's lines (their variants in one call) instead of
 * a placeholder. Without the cookie the frame is the same for every shopper and asks for nothing.
 */
import type { AreaRouteData } from '@shop/shared-kernel/contract';
import { basketVariants } from './components/server-lines.ts';

export const routeData: AreaRouteData = {
  'checkout-cart': {
    loads: ({ basket = [] }) => {
      const variants = basketVariants(basket);
      return variants ? [variants] : [];
    },
  },
};
