/**
 * The data of the checkout area's server-rendered routes (the route names of vite.config.ts). The
 * basket's frame is the same for every shopper and asks for nothing: the basket itself is in the
 * browser's storage and fills the frame after hydration. route-data.test.ts holds the page to it.
 */
import type { AreaRouteData } from '@shop/shared-kernel/contract';

export const routeData: AreaRouteData = {
  'checkout-cart': { loads: () => [] },
};
