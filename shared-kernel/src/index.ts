/**
 * Public entry of @shop/shared-kernel: the federated singleton shared by the
 * shell and every area. React-free rules are also available from
 * '@shop/shared-kernel/rules', contract types from '@shop/shared-kernel/contract'.
 */
import './instance.ts';

export { KERNEL_VERSION, isContractCompatible } from './version.ts';
export { KERNEL_INSTANCE_ID } from './instance.ts';
export {
  AMOUNT_SCALE,
  DEFAULT_VAT,
  unitPriceWithVat,
  unitPriceBeforeSale,
  salePercent,
  lineTotal,
  basketTotal,
  couponDiscountAmount,
  priceAfterCoupon,
  roundTo005,
  basePrice,
} from './money.ts';
export type { PriceInput, PricedLine } from './money.ts';
export { formatPrice, formatNumber, formatPercent, formatDate, formatFee, formatIban, formatPhone, formatZip } from './format.ts';
export { cleanNumericInput, numericInputText, parseAmountInput } from './numeric-input.ts';
export { randomString } from './random-string.ts';
export {
  PAGE_SIZE,
  PAGINATION_WINDOW,
  pageCount,
  paginate,
  pageHref,
  withoutPageQuery,
} from './pagination.ts';
export type { Pagination } from './pagination.ts';
export {
  SHOP_TIME_ZONE,
  OPENING_HOURS,
  OPENING_DAYS,
  OPENING_HOURS_SUMMARY,
  openingHoursText,
  nextOpeningHoursChange,
} from './opening-hours.ts';
export { variantWord, variantCountText } from './variant-word.ts';
export type { VariantWord } from './variant-word.ts';
export {
  BASKET_STORAGE_KEY,
  BASKET_TTL_MS,
  readStoredBasket,
  writeStoredBasket,
} from './basket-storage.ts';
export { bus } from './event-bus.ts';
export type { ShopEvents, CouponStatus, CommerceItem } from './event-bus.ts';
export { commerceItem, basketCommerce } from './commerce-item.ts';
export { NotFoundError, isNotFound, ApiError } from './errors.ts';
export { createApiClient, configureApi, api } from './api-client.ts';
export type { ApiClient, ApiClientOptions, Query, QueryValue, RequestOptions } from './api-client.ts';
export { useAuthStore, isAuthenticated, userIdFromToken } from './auth-store.ts';
export type { AuthState, AuthStore, SignedIn, SignedOut } from './auth-store.ts';
export { useBasketStore, basketCount } from './basket-store.ts';
export type { BasketStore } from './basket-store.ts';
export { useCouponStore, finalTotal } from './coupon-store.ts';
export type { CouponStore } from './coupon-store.ts';
export { useConsentStore, analyticsEnabled } from './consent-store.ts';
export { CONSENT_NOTICE } from './consent-rules.ts';
export { MAX_CLIENT_MESSAGE_LENGTH, scrubClientMessage } from './telemetry-rules.ts';
export { SEARCH_MESSAGES, SEARCH_TEXT_MAX, searchTermProblem } from './search-rules.ts';
export type { ConsentStore } from './consent-store.ts';
export { initKernel } from './startup.ts';
export { useDeviceStore, MOBILE_MAX_WIDTH } from './device-store.ts';
export { validateContactMessage, CONTACT_FORM_MESSAGES, CONTACT_MESSAGE_LIMITS } from './contact-message-rules.ts';
export type { ContactMessageInput, ContactMessageErrors } from './contact-message-rules.ts';
export type { DeviceState } from './device-store.ts';
export { injectAreaStyles } from './area-styles.ts';
export { useResource } from './react/use-resource.ts';
export type { Resource } from './react/use-resource.ts';
export { usePageMeta, SHOP_NAME } from './react/use-page-meta.ts';
export { PaginationNav } from './react/pagination-nav.tsx';
export { TextField } from './react/text-field.tsx';
export { usePaymentRetry } from './react/use-payment-retry.ts';
export type { TextFieldProps } from './react/text-field.tsx';
export { useJsonLd } from './react/use-json-ld.ts';
export {
  RoutingProvider,
  useRouting,
  useLocation,
  useParams,
  useNavigate,
  useSearchParams,
  Link,
  NavLink,
  Navigate,
} from './react/routing.tsx';
export type { ShopRouting, ShopLocation, NavigateOptions, RouteParams, LinkProps } from './react/routing.tsx';
export type * from './contract/index.ts';
// checkout (issue 5)
export {
  CONTACT_MESSAGES,
  normalizeSlovakPhone,
  normalizeZip,
  validateContact,
  normalizeContact,
  emptyContact,
  vatBreakdown,
} from './checkout-rules.ts';
export type { ContactErrors } from './checkout-rules.ts';
export { useCheckoutStore, basketChanges, CHECKOUT_DRAFT_KEY, BASKET_SEEN_KEY } from './checkout-store.ts';
export type { CheckoutDraft, CheckoutStore, LineChange, SeenLine } from './checkout-store.ts';
// account (issue 6)
export {
  ACCOUNT_MESSAGES,
  ORDER_STATE_LABELS,
  COMPLAINT_REASON_LABELS,
  COMPLAINT_STATE_LABELS,
  PASSWORD_MIN_LENGTH,
  WITHDRAWAL_DAYS,
  COMPLAINT_SETTLE_DAYS,
  COMPLAINT_PHOTO_MAX_BYTES,
  COMPLAINT_PHOTO_MAX_COUNT,
  COMPLAINT_PHOTO_TYPES,
  checkPassword,
  validateProfile,
  validateAddress,
  normalizeOptionalPhone,
  withdrawalDeadline,
  complaintSettleBy,
  daysLeft,
  imageTypeOf,
  mergeCheckoutPrefill,
} from './account-rules.ts';
