/**
 * '@shop/shared-kernel': the federated singleton, ONE instance on the page,
 * shared by the shell and every area. Only what must be one is here: the
 * stores, the event bus, the API client's configuration, the routing context
 * (and the few React helpers that use it or the API client), the error classes
 * (instanceof across parts), the kernel's version and instance id, and the
 * startup that needs them.
 *
 * Everything else is an ordinary module each part bundles and tree-shakes:
 *   '@shop/shared-kernel/rules'      pure rules, formatting, money, Slovak messages
 *   '@shop/shared-kernel/react'      stateless React hooks and components, page helpers
 *   '@shop/shared-kernel/contract'   API and domain types (also re-exported here as types)
 *   '@shop/shared-kernel/testing'    the parts' test helpers (fake fetch, fixtures)
 * Each entry is the index of the folder of its name (this one: singleton/).
 */
import './instance.ts';

export { KERNEL_VERSION } from './version.ts';
export { KERNEL_INSTANCE_ID } from './instance.ts';
export { initKernel } from './startup.ts';

export { bus } from './event-bus.ts';
export type { ShopEvents, CouponStatus, CommerceItem } from './event-bus.ts';

export { createApiClient, configureApi, api, call, download, resource } from './api-client.ts';
export type { ApiClient, ApiClientOptions, CallArgs, CallAnswer, CallOptions, CallResource, OpsReleaseAction } from './api-client.ts';
export type { Query, QueryValue } from '../rules/call-key.ts';
export { NotFoundError, ApiError } from './errors.ts';

export { useAuthStore } from './auth-store.ts';
export type { AuthState, AuthStore, SessionStart, SessionUser, SignedIn, SignedOut } from './auth-store.ts';
export { useBasketStore } from './basket-store.ts';
export type { BasketStore } from './basket-store.ts';
export { useCouponStore } from './coupon-store.ts';
export type { CouponStore } from './coupon-store.ts';
export { useConsentStore } from './consent-store.ts';
export type { ConsentStore } from './consent-store.ts';
export { useDeviceStore } from './device-store.ts';
export type { DeviceState } from './device-store.ts';
export { useCheckoutStore } from './checkout-store.ts';
export type { CheckoutDraft, CheckoutStore } from './checkout-store.ts';
export { useFlagStore, useFlag } from './flag-store.ts';
export type { FlagState } from './flag-store.ts';

export { RoutingProvider, useRouting, useLocation, useParams, useNavigate, useSearchParams, Link, NavLink, Navigate } from './routing.tsx';
export type { ShopRouting, ShopLocation, NavigateOptions, RouteParams, LinkProps } from './routing.tsx';
// React helpers that need the routing context or the configured API client. Module Federation
// does not proxy an import from inside the kernel package to the shared kernel (it stays local),
// so a helper in '/react' could only reach a second, unconfigured copy: these are exported here.
export { PaginationNav } from '../react/pagination-nav.tsx';
export { usePaymentRetry } from '../react/use-payment-retry.ts';
export { useInvoiceDownload, invoiceErrorMessage } from '../react/use-invoice-download.ts';

export type * from '../contract/index.ts';
