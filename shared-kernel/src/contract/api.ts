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
} from './domain.ts';

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
    query: { category?: string; brand?: string; sale?: 1; page?: number; sort?: ProductSort };
    answer: Paged<ProductSummary>;
  };
  'GET /api/product/:url': { answer: { data: ProductDetail } };
  'GET /api/brand/:url': { answer: { data: Brand } };
  'GET /api/page/:slug': { answer: { data: StaticPage } };
};
