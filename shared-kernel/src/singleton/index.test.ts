// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import * as kernel from './index.ts';

/** Only what must be one instance on the page (everything else: '/rules', '/react'). */
const EXPECTED = [
  // version.ts, instance.ts, startup.ts
  'KERNEL_VERSION',
  'KERNEL_INSTANCE_ID',
  'initKernel',
  // event-bus.ts
  'bus',
  // api-client.ts, errors.ts
  'createApiClient',
  'configureApi',
  'api',
  'call',
  'download',
  'resource',
  'NotFoundError',
  'ApiError',
  // stores
  'useAuthStore',
  'useBasketStore',
  'useCouponStore',
  'useConsentStore',
  'useDeviceStore',
  'useCheckoutStore',
  // flag-store.ts (the feature switches in force, set by the shell)
  'useFlagStore',
  'useFlag',
  // routing.tsx (one context for the shell and the areas)
  'RoutingProvider',
  'useRouting',
  'useLocation',
  'useParams',
  'useNavigate',
  'useSearchParams',
  'Link',
  'NavLink',
  'Navigate',
  // React helpers on the routing context or the API client
  'PaginationNav',
  'usePaymentRetry',
  'useInvoiceDownload',
  'invoiceErrorMessage',
];

describe('public entry', () => {
  it('exports exactly the agreed names', () => {
    expect(Object.keys(kernel).sort()).toEqual([...EXPECTED].sort());
  });
  it('registers exactly one kernel instance', () => {
    expect(globalThis.__SHOP_KERNEL_INSTANCES__).toEqual([kernel.KERNEL_INSTANCE_ID]);
  });
  it('stores are hooks with getState', () => {
    for (const store of [kernel.useAuthStore, kernel.useBasketStore, kernel.useCouponStore, kernel.useConsentStore]) {
      expect(typeof store).toBe('function');
      expect(typeof store.getState).toBe('function');
    }
  });
});
