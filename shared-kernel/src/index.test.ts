// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import * as kernel from './index.ts';

const EXPECTED = [
  // version.ts
  'KERNEL_VERSION',
  'isContractCompatible',
  // instance.ts
  'KERNEL_INSTANCE_ID',
  // money.ts
  'AMOUNT_SCALE',
  'DEFAULT_VAT',
  'unitPriceWithVat',
  'unitPriceBeforeSale',
  'salePercent',
  'lineTotal',
  'basketTotal',
  'couponDiscountAmount',
  'priceAfterCoupon',
  'roundTo005',
  'basePrice',
  // format.ts
  'formatPrice',
  'formatNumber',
  'formatPercent',
  'formatDate',
  'formatFee',
  'formatIban',
  'formatPhone',
  'formatZip',
  // numeric-input.ts
  'cleanNumericInput',
  'numericInputText',
  'parseAmountInput',
  // random-string.ts
  'randomString',
  // pagination.ts
  'PAGE_SIZE',
  'PAGINATION_WINDOW',
  'pageCount',
  'paginate',
  'pageHref',
  'withoutPageQuery',
  // opening-hours.ts
  'SHOP_TIME_ZONE',
  'OPENING_HOURS',
  'OPENING_DAYS',
  'OPENING_HOURS_SUMMARY',
  'openingHoursText',
  'nextOpeningHoursChange',
  // variant-word.ts
  'variantWord',
  'variantCountText',
  // basket-storage.ts
  'BASKET_STORAGE_KEY',
  'BASKET_TTL_MS',
  'readStoredBasket',
  'writeStoredBasket',
  // event-bus.ts
  'bus',
  // errors.ts
  'NotFoundError',
  'isNotFound',
  'ApiError',
  // api-client.ts
  'createApiClient',
  'configureApi',
  'useResource',
  'validateContactMessage',
  'CONTACT_FORM_MESSAGES',
  'CONTACT_MESSAGE_LIMITS',
  'PaginationNav',
  'TextField',
  'usePaymentRetry',
  'useJsonLd',
  // consent-rules.ts
  'CONSENT_NOTICE',
  // telemetry-rules.ts
  'MAX_CLIENT_MESSAGE_LENGTH',
  'scrubClientMessage',
  // commerce-item.ts
  'commerceItem',
  'basketCommerce',
  // search-rules.ts
  'SEARCH_MESSAGES',
  'SEARCH_TEXT_MAX',
  'searchTermProblem',
  // react/routing.tsx
  'RoutingProvider',
  'useRouting',
  'useLocation',
  'useParams',
  'useNavigate',
  'useSearchParams',
  'Link',
  'NavLink',
  'Navigate',
  'useDeviceStore',
  'MOBILE_MAX_WIDTH',
  'usePageMeta',
  'SHOP_NAME',
  'api',
  // stores
  'useAuthStore',
  'isAuthenticated',
  'userIdFromToken',
  'useBasketStore',
  'basketCount',
  'useCouponStore',
  'finalTotal',
  'useConsentStore',
  'analyticsEnabled',
  // startup.ts, area-styles.ts
  'initKernel',
  'injectAreaStyles',
  // checkout-rules.ts, checkout-store.ts (issue 5)
  'CONTACT_MESSAGES',
  'normalizeSlovakPhone',
  'normalizeZip',
  'validateContact',
  'normalizeContact',
  'emptyContact',
  'vatBreakdown',
  'useCheckoutStore',
  'basketChanges',
  'CHECKOUT_DRAFT_KEY',
  'BASKET_SEEN_KEY',
  // account-rules.ts (issue 6)
  'ACCOUNT_MESSAGES',
  'ORDER_STATE_LABELS',
  'COMPLAINT_REASON_LABELS',
  'COMPLAINT_STATE_LABELS',
  'PASSWORD_MIN_LENGTH',
  'WITHDRAWAL_DAYS',
  'COMPLAINT_SETTLE_DAYS',
  'COMPLAINT_PHOTO_MAX_BYTES',
  'COMPLAINT_PHOTO_MAX_COUNT',
  'COMPLAINT_PHOTO_TYPES',
  'checkPassword',
  'validateProfile',
  'validateAddress',
  'normalizeOptionalPhone',
  'withdrawalDeadline',
  'complaintSettleBy',
  'daysLeft',
  'imageTypeOf',
  'mergeCheckoutPrefill',
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
