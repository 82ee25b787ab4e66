/**
 * The HTTP client of the storefront. JSON in and out, the browser's session
 * cookie (HttpOnly, set by the API at sign-in: `credentials: 'same-origin'`,
 * never an Authorization header of the shopper's), and one error type:
 * ApiError built from the API's { error: { code, message } } body (status 0
 * when the request itself failed).
 *
 * `api` is the configured default instance (same origin). The auth store
 * registers whether the shopper is signed in and its local sign-out through
 * configureApi, which tests also use to pass a fake fetch.
 *
 * Every call of the shell and the areas to /api goes through here (ESLint forbids a raw fetch
 * there), so a 401 to a signed-in shopper's request always signs out. Binary answers (PDF,
 * photos) come from `download`; the operator's document calls carry the operator's token in their
 * own header instead of the shopper's (RequestOptions.headers), and /ops's calls only the operator's
 * session cookie (same origin, HttpOnly: the page never sees it).
 */
import type { ApiCalls, ApiErrorCode, CheckoutCalls, ReleasePart } from './contract/index.ts';
import type { CatalogCalls } from './contract/index.ts';
import type { AccountCalls } from './contract/index.ts';
import { ApiError } from './errors.ts';

export type ApiClientOptions = {
  /** Prefix of every path; '' means same origin. */
  baseUrl?: string;
  /** Defaults to globalThis.fetch, looked up at call time. */
  fetch?: typeof fetch;
  /** Whether the page holds a signed-in session (then a 401 means it has ended). */
  isSignedIn?: () => boolean;
  /** Called on a 401 answer to a request sent with the session while signed in (expired session). */
  onUnauthorized?: () => void;
};

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;
export type RequestOptions = {
  signal?: AbortSignal;
  /** A public call (the catalogue): sent without the session cookie, so it is the same for everyone and caches may answer it. */
  anonymous?: boolean;
  /**
   * Extra headers of this request, e.g. the operator's token. With an Authorization header of its
   * own the shopper's session cookie is not sent (and a 401 does not sign the shopper out).
   */
  headers?: Record<string, string>;
  /** The browser's HTTP cache mode, e.g. 'no-store' for the operator's live views. */
  cache?: RequestCache;
  /** Whether the browser sends its cookies, e.g. 'same-origin' for the operator's session on /ops. */
  credentials?: RequestCredentials;
};

type Answer<K extends keyof ApiCalls> = ApiCalls[K]['answer'];

/** The moves of /ops on a released part, each a call of the contract. */
export type OpsReleaseAction = 'rollback' | 'pin' | 'unpin' | 'promote' | 'abort' | 'preview';
type OpsReleaseCall<A extends OpsReleaseAction> = ApiCalls[`POST /api/ops/releases/:part/${A}`];

/**
 * The operator's document tools of the spec's utility routes (/pdf, /generate, /email, /send,
 * /paid), behind X-Operator-Token: the contract's calls, and the invoice PDF beside them.
 */
export type OperatorDocumentCalls = Pick<
  ApiCalls,
  | 'POST /api/operator/orders/:number/invoice'
  | 'GET /api/operator/orders/:number/email'
  | 'POST /api/operator/orders/:number/email'
  | 'POST /api/operator/orders/:number/paid'
> & {
  /** The invoice is a PDF, outside the JSON contract. */
  'GET /api/operator/orders/:number/invoice': { answer: Blob };
};
type OperatorAnswer<K extends keyof OperatorDocumentCalls> = OperatorDocumentCalls[K]['answer'];

const ERROR_CODES: readonly ApiErrorCode[] = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'internal',
];

const NETWORK_ERROR_MESSAGE = 'Server je momentálne nedostupný. Skúste to, prosím, znova.';
const INVALID_ANSWER_MESSAGE = 'Server vrátil neplatnú odpoveď.';

function codeForStatus(status: number): ApiErrorCode {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 422:
      return 'validation_failed';
    case 429:
      return 'rate_limited';
    default:
      return 'internal';
  }
}

function errorFromBody(status: number, body: unknown): ApiError {
  const error =
    typeof body === 'object' && body !== null && 'error' in body ? (body as { error: unknown }).error : null;
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    const knownCode = ERROR_CODES.find((c) => c === code) ?? codeForStatus(status);
    const text = typeof message === 'string' && message ? message : `Požiadavka zlyhala (HTTP ${status}).`;
    return new ApiError(status, knownCode, text);
  }
  return new ApiError(status, codeForStatus(status), `Požiadavka zlyhala (HTTP ${status}).`);
}

/** "?a=1&b=x" from the defined values of a query object, "" when none. */
export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function createApiClient(options: ApiClientOptions = {}) {
  /** One HTTP exchange: the token, the headers, the network failure as ApiError(0). */
  async function send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    query: Query | undefined,
    body: unknown,
    init: RequestOptions | undefined,
    accept: string | null,
  ): Promise<{ response: Response; asShopper: boolean }> {
    // Everything up to the fetch call runs synchronously, so "signed in" is the
    // state when the call was made (logout relies on this).
    const extra = init?.headers ?? {};
    const ownAuthorization = Object.keys(extra).some((name) => name.toLowerCase() === 'authorization');
    const withSession = !init?.anonymous && !ownAuthorization;
    const asShopper = withSession && (options.isSignedIn?.() ?? false);
    const headers: Record<string, string> = accept ? { Accept: accept } : {};
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
    Object.assign(headers, extra);
    const url = `${options.baseUrl ?? ''}${path}${buildQuery(query)}`;
    const doFetch = options.fetch ?? globalThis.fetch;
    // The session cookie goes with the shopper's calls only: a public call without it stays
    // cacheable, and the operator's own token is never mixed with the shopper's session.
    const requestInit: RequestInit = { method, headers, credentials: withSession ? 'same-origin' : 'omit' };
    if (body !== undefined) requestInit.body = isForm ? body : JSON.stringify(body);
    if (init?.signal) requestInit.signal = init.signal;
    if (init?.cache) requestInit.cache = init.cache;
    if (init?.credentials) requestInit.credentials = init.credentials;

    try {
      return { response: await doFetch(url, requestInit), asShopper };
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError(0, 'internal', NETWORK_ERROR_MESSAGE, { cause });
    }
  }

  /** A refused request: a 401 to one sent as the signed-in shopper signs out; the error from the body. */
  function refused(response: Response, asShopper: boolean, parsed: unknown): ApiError {
    if (response.status === 401 && asShopper) options.onUnauthorized?.();
    return errorFromBody(response.status, parsed);
  }

  async function request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    query: Query | undefined,
    body: unknown,
    init: RequestOptions | undefined,
  ): Promise<T> {
    const { response, asShopper } = await send(method, path, query, body, init, 'application/json');
    const text = await response.text().catch(() => '');
    let parsed: unknown = undefined;
    let parseFailed = false;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parseFailed = true;
      }
    }

    if (!response.ok) throw refused(response, asShopper, parsed);
    if (parseFailed) throw new ApiError(response.status, 'internal', INVALID_ANSWER_MESSAGE);
    return parsed as T;
  }

  const get = <T>(path: string, query?: Query, init?: RequestOptions) =>
    request<T>('GET', path, query, undefined, init);
  /** The public catalogue: never with the session (the answers do not depend on who asks). */
  const publicGet = <T>(path: string, query?: Query, init?: RequestOptions) =>
    request<T>('GET', path, query, undefined, { ...init, anonymous: true });
  const post = <T>(path: string, body: unknown, init?: RequestOptions) =>
    request<T>('POST', path, undefined, body ?? {}, init);
  const segment = encodeURIComponent;
  const put = <T>(path: string, body: unknown) => request<T>('PUT', path, undefined, body ?? {}, undefined);
  const del = <T>(path: string) => request<T>('DELETE', path, undefined, undefined, undefined);
  type Acc<K extends keyof AccountCalls> = AccountCalls[K]['answer'];

  /**
   * A binary answer (invoice PDF, complaint photo) with the session, as a Blob;
   * errors and the 401 sign-out as for JSON calls.
   */
  async function download(path: string, init?: RequestOptions): Promise<Blob> {
    const { response, asShopper } = await send('GET', path, undefined, undefined, init, null);
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      throw refused(response, asShopper, parsed);
    }
    return response.blob();
  }

  /**
   * /ops: the operator's session cookie (same origin) and never the shopper's token, so a 401 there
   * does not sign the shopper out; never from a cache.
   */
  const asOps: RequestOptions = { anonymous: true, credentials: 'same-origin', cache: 'no-store' };
  /** The operator's order tools: X-Operator-Token, without the shopper's token, never from a cache. */
  const asOperator = (operatorToken: string): RequestOptions => ({ anonymous: true, headers: { 'X-Operator-Token': operatorToken }, cache: 'no-store' });
  const operatorOrder = (number: string, tail: string) => `/api/operator/orders/${segment(number)}/${tail}`;

  return {
    get,
    post,

    // spec section 7; the browser's session is the cookie, so no authHash (API clients may send one)
    logout: (authHash?: string) =>
      post<Answer<'POST /api/account/logout'>>('/api/account/logout', authHash ? { authHash } : {}),
    validateCoupon: (body: ApiCalls['POST /api/coupon/validate']['body']) =>
      post<Answer<'POST /api/coupon/validate'>>('/api/coupon/validate', body),
    deactivateCoupon: (userId: number) =>
      get<Answer<'GET /api/coupon/deactive'>>('/api/coupon/deactive', { userId }),
    activeCoupon: (userId: number) =>
      get<Answer<'GET /api/coupon/active'>>('/api/coupon/active', { user_id: userId }),
    variantDetail: (v_id: number) =>
      post<Answer<'POST /api/product/variant/detail'>>('/api/product/variant/detail', { v_id }),
    menu: () => publicGet<Answer<'GET /api/menu'>>('/api/menu'),
    site: () => publicGet<Answer<'GET /api/site'>>('/api/site'),
    pickupPoints: (query: { q?: string; lat?: number; lon?: number }) => {
      const params = new URLSearchParams();
      if (query.q) params.set('q', query.q);
      if (query.lat !== undefined && query.lon !== undefined) {
        params.set('lat', query.lat.toFixed(4));
        params.set('lon', query.lon.toFixed(4));
      }
      const search = params.toString();
      return publicGet<CheckoutCalls['GET /api/pickup-points']['answer']>(`/api/pickup-points${search ? `?${search}` : ''}`);
    },
    redirectList: () => get<Answer<'GET /api/redirect/list'>>('/api/redirect/list'),

    // ours
    redirectFor: (path: string) => get<Answer<'GET /api/redirect'>>('/api/redirect', { path }),
    login: (email: string, password: string) =>
      post<Answer<'POST /api/account/login'>>('/api/account/login', { email, password }),
    me: () => get<Answer<'GET /api/account/me'>>('/api/account/me'),
    home: () => publicGet<Answer<'GET /api/home'>>('/api/home'),
    category: (url: string) => publicGet<Answer<'GET /api/category/:url'>>(`/api/category/${segment(url)}`),
    products: (query: ApiCalls['GET /api/products']['query'], init?: RequestOptions) =>
      publicGet<Answer<'GET /api/products'>>('/api/products', query, init),
    product: (url: string) => publicGet<Answer<'GET /api/product/:url'>>(`/api/product/${segment(url)}`),
    page: (slug: string) => get<Answer<'GET /api/page/:slug'>>(`/api/page/${segment(slug)}`),
    brand: (url: string) => publicGet<Answer<'GET /api/brand/:url'>>(`/api/brand/${segment(url)}`),
    blog: (query: ApiCalls['GET /api/blog']['query']) => get<Answer<'GET /api/blog'>>('/api/blog', query),
    blogTags: () => get<Answer<'GET /api/blog/tags'>>('/api/blog/tags'),
    blogPost: (slug: string) => get<Answer<'GET /api/blog/post/:slug'>>(`/api/blog/post/${segment(slug)}`),
    contact: (body: ApiCalls['POST /api/contact']['body']) => post<Answer<'POST /api/contact'>>('/api/contact', body),
    loyalty: () => get<Answer<'GET /api/loyalty'>>('/api/loyalty'),

    // checkout
    checkoutMethods: () => get<CheckoutCalls['GET /api/checkout/methods']['answer']>('/api/checkout/methods'),
    checkoutQuote: (body: CheckoutCalls['POST /api/checkout/quote']['body'], init?: RequestOptions) =>
      request<CheckoutCalls['POST /api/checkout/quote']['answer']>('POST', '/api/checkout/quote', undefined, body, init),
    placeOrder: (body: CheckoutCalls['POST /api/orders']['body']) =>
      post<CheckoutCalls['POST /api/orders']['answer']>('/api/orders', body),
    order: (token: string) => get<CheckoutCalls['GET /api/orders/:token']['answer']>(`/api/orders/${segment(token)}`),
    retryPayment: (token: string) =>
      post<CheckoutCalls['POST /api/orders/:token/pay']['answer']>(`/api/orders/${segment(token)}/pay`, {}),
    /** The invoice PDF of an order: a guest's by the order token, a signed-in shopper's own with the session. */
    invoice: (orderToken: string) => download(`/api/orders/${segment(orderToken)}/invoice`),

    // account
    put,
    del,
    download,
    register: (body: AccountCalls['POST /api/account/register']['body']) =>
      post<Acc<'POST /api/account/register'>>('/api/account/register', body),
    requestPasswordReset: (email: string) =>
      post<Acc<'POST /api/account/password-reset'>>('/api/account/password-reset', { email }),
    confirmPasswordReset: (token: string, password: string) =>
      post<Acc<'POST /api/account/password-reset/confirm'>>('/api/account/password-reset/confirm', { token, password }),
    profile: () => get<Acc<'GET /api/account/profile'>>('/api/account/profile'),
    updateProfile: (body: AccountCalls['PUT /api/account/profile']['body']) =>
      put<Acc<'PUT /api/account/profile'>>('/api/account/profile', body),
    confirmEmailChange: (token: string) => post<Acc<'POST /api/account/email/confirm'>>('/api/account/email/confirm', { token }),
    changePassword: (currentPassword: string, newPassword: string) =>
      post<Acc<'POST /api/account/password'>>('/api/account/password', { currentPassword, newPassword }),
    deleteAccount: (password: string) => post<Acc<'POST /api/account/delete'>>('/api/account/delete', { password }),
    addresses: () => get<Acc<'GET /api/account/addresses'>>('/api/account/addresses'),
    createAddress: (body: AccountCalls['POST /api/account/addresses']['body']) =>
      post<Acc<'POST /api/account/addresses'>>('/api/account/addresses', body),
    updateAddress: (id: number, body: AccountCalls['PUT /api/account/addresses/:id']['body']) =>
      put<Acc<'PUT /api/account/addresses/:id'>>(`/api/account/addresses/${id}`, body),
    deleteAddress: (id: number) => del<Acc<'DELETE /api/account/addresses/:id'>>(`/api/account/addresses/${id}`),
    checkoutPrefill: () => get<Acc<'GET /api/account/checkout-prefill'>>('/api/account/checkout-prefill'),
    accountOrders: (page?: number, init?: RequestOptions) =>
      get<Acc<'GET /api/account/orders'>>('/api/account/orders', { page }, init),
    accountOrder: (token: string) => get<Acc<'GET /api/account/orders/:token'>>(`/api/account/orders/${segment(token)}`),
    withdrawOrder: (token: string, itemIds: number[]) =>
      post<Acc<'POST /api/account/orders/:token/withdraw'>>(`/api/account/orders/${segment(token)}/withdraw`, { itemIds, confirm: true }),
    complaints: () => get<Acc<'GET /api/account/complaints'>>('/api/account/complaints'),
    /** multipart/form-data: orderToken, itemId, reason, description, photos. */
    fileComplaint: (form: FormData) =>
      request<Acc<'POST /api/account/complaints'>>('POST', '/api/account/complaints', undefined, form, undefined),
    /** A complaint photo (served only to its owner). */
    complaintPhoto: (complaintId: number, photoId: number) => download(`/api/account/complaints/${complaintId}/photos/${photoId}`),

    // catalogue
    productFacets: (query: CatalogCalls['GET /api/products/facets']['query'], init?: RequestOptions) =>
      publicGet<CatalogCalls['GET /api/products/facets']['answer']>('/api/products/facets', query, init),
    search: (query: CatalogCalls['GET /api/search']['query'], init?: RequestOptions) =>
      publicGet<CatalogCalls['GET /api/search']['answer']>('/api/search', query, init),
    suggest: (q: string, init?: RequestOptions) =>
      publicGet<CatalogCalls['GET /api/search/suggest']['answer']>('/api/search/suggest', { q }, init),

    // the operator of /ops (an account's session cookie, never the shopper's token)
    opsSignIn: (body: ApiCalls['POST /api/ops/session']['body']) => post<Answer<'POST /api/ops/session'>>('/api/ops/session', body, asOps),
    opsSession: () => get<Answer<'GET /api/ops/session'>>('/api/ops/session', undefined, asOps),
    /** Sign-out: a JSON body, as every change made with the operator's cookie must be (CSRF). */
    opsSignOut: () => request<void>('DELETE', '/api/ops/session', undefined, {}, asOps),
    opsReleases: () => get<Answer<'GET /api/ops/releases'>>('/api/ops/releases', undefined, asOps),
    opsRelease: <A extends OpsReleaseAction>(part: ReleasePart, action: A, body: OpsReleaseCall<A>['body']) =>
      post<OpsReleaseCall<A>['answer']>(`/api/ops/releases/${segment(part)}/${action}`, body, asOps),
    opsBackups: () => get<Answer<'GET /api/ops/backups'>>('/api/ops/backups', undefined, asOps),
    opsInventory: () => get<Answer<'GET /api/ops/inventory'>>('/api/ops/inventory', undefined, asOps),
    opsAudit: () => get<Answer<'GET /api/ops/audit'>>('/api/ops/audit', undefined, asOps),
    opsRefunds: () => get<Answer<'GET /api/ops/refunds'>>('/api/ops/refunds', undefined, asOps),
    opsIntegrity: () => get<Answer<'GET /api/ops/integrity'>>('/api/ops/integrity', undefined, asOps),
    opsCspViolations: () => get<Answer<'GET /api/ops/csp-violations'>>('/api/ops/csp-violations', undefined, asOps),
    // the operator's order tools (a token of their own, never the shopper's)
    operatorRefunds: (operatorToken: string) =>
      get<Answer<'GET /api/operator/payments/refunds'>>('/api/operator/payments/refunds', undefined, asOperator(operatorToken)),
    operatorInvoice: (operatorToken: string, number: string) => download(operatorOrder(number, 'invoice'), asOperator(operatorToken)),
    operatorStoreInvoice: (operatorToken: string, number: string) =>
      post<OperatorAnswer<'POST /api/operator/orders/:number/invoice'>>(operatorOrder(number, 'invoice'), {}, asOperator(operatorToken)),
    operatorEmail: (operatorToken: string, number: string) =>
      get<OperatorAnswer<'GET /api/operator/orders/:number/email'>>(operatorOrder(number, 'email'), undefined, asOperator(operatorToken)),
    operatorSendEmail: (operatorToken: string, number: string) =>
      post<OperatorAnswer<'POST /api/operator/orders/:number/email'>>(operatorOrder(number, 'email'), {}, asOperator(operatorToken)),
    operatorMarkPaid: (operatorToken: string, number: string) =>
      post<OperatorAnswer<'POST /api/operator/orders/:number/paid'>>(operatorOrder(number, 'paid'), {}, asOperator(operatorToken)),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** Live configuration of the default instance (read at every call). */
const defaultConfig: ApiClientOptions = { baseUrl: '' };

/**
 * Changes the default instance: the auth store sets isSignedIn and
 * onUnauthorized; tests pass a fake fetch. Keys present in `config`
 * replace the current values (pass `fetch: undefined` to go back to the
 * global fetch).
 */
export function configureApi(config: ApiClientOptions): void {
  Object.assign(defaultConfig, config);
}

/** The default client: same origin, the session cookie, 401 while signed in → local sign-out. */
export const api: ApiClient = createApiClient(defaultConfig);
