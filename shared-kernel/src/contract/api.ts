/**
 * The HTTP contract between the browser parts and the API.
 * Paths of spec section 7 keep their exact shape; the rest is ours.
 * Every error answer is ApiErrorBody with a 4xx/5xx status.
 */
import type {
  CategoryDetail,
  CouponValidation,
  HomeData,
  MenuData,
  ProductDetail,
  ProductSummary,
  RedirectEntry,
  SiteData,
  StaticPage,
  User,
  VariantData,
  BasketLine,
  Coupon,
  Brand,
  BlogPost,
  BlogPostSummary,
  BlogTag,
  ReleasePart,
  ReleaseStatus,
  PickupPoint,
} from './domain.ts';
import type { CheckoutContact, CheckoutQuote, OrderDetail, ShippingPriceList } from './domain.ts';
import type { ListingQuery } from './catalog.ts';
import type { TelemetryBatch, TelemetrySummary } from './telemetry.ts';

export type ApiErrorCode =
  | 'bad_request'
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'internal';

export type ApiErrorBody = { error: { code: ApiErrorCode; message: string } };

export type Paged<T> = {
  data: T[];
  meta: { page: number; pageSize: number; total: number; pageCount: number };
};

export type ProductSort = 'popular' | 'price-asc' | 'price-desc' | 'name' | 'newest';

/** Request and answer shapes, by call. */
export type ApiCalls = {
  // spec section 7
  'POST /api/account/logout': { body: { authHash: string }; answer: { data: { ok: true } } };
  'POST /api/coupon/validate': {
    body: { code: string; cart: BasketLine[]; total: number; userId: number };
    answer: CouponValidation;
  };
  'GET /api/coupon/deactive': { query: { userId: number }; answer: { data: { ok: true } } };
  'GET /api/coupon/active': { query: { user_id: number }; answer: { coupon: Coupon | null } };
  'POST /api/product/variant/detail': { body: { v_id: number }; answer: { data: VariantData } };
  'GET /api/menu': { answer: { data: MenuData } };
  'GET /api/site': { answer: { data: SiteData } };
  'GET /api/redirect/list': { answer: { data: RedirectEntry[] } };
  // ours
  'GET /api/redirect': {
    query: { path: string };
    answer: { data: { to: string; external: boolean } | null };
  };
  'POST /api/account/login': {
    body: { email: string; password: string };
    answer: { data: { token: string; user: User } };
  };
  'GET /api/account/me': { answer: { data: User } };
  'GET /api/home': { answer: { data: HomeData } };
  'GET /api/category/:url': { answer: { data: CategoryDetail } };
  'GET /api/products': {
    query: ListingQuery;
    answer: Paged<ProductSummary>;
  };
  'GET /api/product/:url': { answer: { data: ProductDetail } };
  'GET /api/brand/:url': { answer: { data: Brand } };
  'GET /api/blog': { query: { tag?: string; page?: number }; answer: Paged<BlogPostSummary> };
  'GET /api/blog/tags': { answer: { data: BlogTag[] } };
  'GET /api/blog/post/:slug': { answer: { data: BlogPost } };
  'POST /api/contact': {
    body: { name: string; email: string; phone?: string; message: string; /** Spam trap: always empty for people. */ website?: string };
    answer: { data: { ok: true } };
  };
  'GET /api/loyalty': { answer: { data: { points: number; paidOrders: number; paidTotal: number; pointsPerEuro: number } } };
  // operator (Bearer operator token)
  'GET /api/ops/releases': { answer: { data: ReleaseStatus } };
  'POST /api/ops/releases/:part/rollback': {
    body: { version?: string; reason?: string };
    answer: { data: { part: ReleasePart; version: string; from: string | null; changed: boolean } };
  };
  'POST /api/ops/releases/:part/pin': { body: { reason?: string }; answer: { data: { pinned: boolean } } };
  'POST /api/ops/releases/:part/unpin': { body: { reason?: string }; answer: { data: { pinned: boolean } } };
  'POST /api/ops/releases/:part/promote': { body: { version?: string }; answer: { data: { part: ReleasePart; version: string; from: string | null; changed: boolean } } };
  'POST /api/ops/releases/:part/abort': { body: { version?: string; reason?: string }; answer: { data: { part: ReleasePart; version: string; from: string | null; changed: boolean } } };
  'POST /api/ops/releases/:part/preview': { body: { version: string }; answer: { data: { url: string; expires: string } } };
  // client telemetry (public; JSON or text/plain as navigator.sendBeacon sends it); 204 No Content
  'POST /api/telemetry': { body: TelemetryBatch; answer: void };
  'GET /api/telemetry/summary': { query: { minutes?: number }; answer: { data: TelemetrySummary } };
  'GET /api/page/:slug': { answer: { data: StaticPage } };
};

// ---- checkout (issue 5) ----

export type CheckoutLineInput = { v_id: number; amount: number };

export type QuoteBody = {
  lines: CheckoutLineInput[];
  shippingCode?: string | null;
  paymentCode?: string | null;
  /** Only with a Bearer token; validated for the token's user. */
  couponCode?: string | null;
};

export type PlaceOrderBody = {
  /** Random, one per attempt to place an order: a retried request or a double click makes one order. */
  idempotencyKey: string;
  lines: CheckoutLineInput[];
  contact: CheckoutContact;
  shippingCode: string;
  paymentCode: string;
  couponCode: string | null;
  /** When sent, must be the token's user; never trusted otherwise. */
  userId?: number | null;
  note: string;
  termsAccepted: boolean;
  /** The total the shopper saw; a different server total is refused (409) instead of charged. */
  expectedTotal?: number;
  /** Required with shipping "pickup-point": the code of the chosen pickup point. */
  pickupPointCode?: string | null;
};

/** Answer of placing an order and of starting a payment again. */
export type PlacedOrder = {
  order: OrderDetail;
  /** Where to send the shopper to pay (card), null when nothing is paid online. */
  redirectUrl: string | null;
};

/** A card payment the shop must not keep (a second payment of an order, or one after the order ended), for the operator. */
export type PaymentRefund = {
  paymentId: number;
  gatewayRef: string;
  orderNumber: string;
  amountCents: number;
  /** pending: queued for the gateway; refunded; failed: the gateway refused, a person must look. */
  status: 'pending' | 'refunded' | 'failed';
  reason: string | null;
  paidAt: string;
  refundedAt: string | null;
};

export type CheckoutCalls = {
  'GET /api/checkout/methods': { answer: { data: ShippingPriceList } };
  'POST /api/checkout/quote': { body: QuoteBody; answer: { data: CheckoutQuote } };
  'POST /api/orders': { body: PlaceOrderBody; answer: { data: PlacedOrder } };
  /** Pickup points matching a town, PSČ or name (q), nearest first when a position is given; at most 20. */
  'GET /api/pickup-points': { query: { q?: string; lat?: number; lon?: number }; answer: { data: PickupPoint[] } };
  'GET /api/orders/:token': { answer: { data: OrderDetail } };
  'POST /api/orders/:token/pay': { answer: { data: PlacedOrder } };
  'GET /api/operator/payments/refunds': { answer: { data: PaymentRefund[] } };
};
