/**
 * The HTTP client of the storefront. JSON in and out, the browser's session
 * cookie (HttpOnly, set by the API at sign-in: `credentials: 'same-origin'`,
 * never an Authorization header of the shopper's), and one error type:
 * ApiError built from the API's { error: { code, message } } body (status 0
 * when the request itself failed).
 *
 * Every call is named as the contract names it, `call('GET /api/product/:url', { params: { url } })`:
 * its path, params, query, body and answer types come from the contract's tables (ApiCalls), so a
 * renamed route is a type error at every call site; who a call is sent as (public, /ops, the
 * shopper) is the contract's too (call-access.ts).
 *
 * `api` is the configured default instance (same origin); `call`, `download` and `resource` are
 * its functions. The auth store registers whether the shopper is signed in and its local sign-out
 * through configureApi, which tests also use to pass a fake fetch.
 *
 * Every call of the shell and the areas to the API goes through here (ESLint forbids a raw fetch
 * there), so a 401 to a signed-in shopper's request always signs out. Binary answers (PDF,
 * photos) come from `download`. The operator's calls answer only on the operator origin, to the
 * operator console's own client (server/console); a page of the shop never reaches them.
 */
import type { ApiCalls, ApiErrorCode, CallName, DownloadCalls, DownloadName } from '../contract/index.ts';
import { accessOf } from '../contract/call-access.ts';
import { buildQuery, keyOf, splitCall, type Query } from '../rules/call-key.ts';
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

/** How one call is sent, beyond its arguments. */
export type CallOptions = {
  signal?: AbortSignal;
  /** The browser's HTTP cache mode, e.g. 'no-store' for a view that must be live. */
  cache?: RequestCache;
  /**
   * Extra headers of this request. With an Authorization header of its own the shopper's session
   * cookie is not sent (and a 401 does not sign the shopper out).
   */
  headers?: Record<string, string>;
};

type Def<K extends CallName> = ApiCalls[K];
// Not distributive ([C] extends …): a name outside the contract makes K the union of every call, and
// distributing each of the three over it would cross them into thousands of argument types to compare.
type ParamsArg<C> = [C] extends [{ params: infer P }] ? { params: P } : { params?: undefined };
type QueryArg<C> = [C] extends [{ query: infer Q }] ? (Partial<Q> extends Q ? { query?: Q } : { query: Q }) : { query?: undefined };
type BodyArg<C> = [C] extends [{ body: infer B }] ? (Partial<B> extends B ? { body?: B } : { body: B }) : { body?: undefined };
/** The arguments of a call, as its contract types them: `params`, `query`, `body` where it has them. */
export type CallArgs<K extends CallName> = ParamsArg<Def<K>> & QueryArg<Def<K>> & BodyArg<Def<K>>;
export type CallAnswer<K extends CallName> = Def<K>['answer'];
/** The arguments may be left out when the call needs none. */
type ArgsOf<A> = Partial<A> extends A ? [args?: A] : [args: A];

/** A call bound to its arguments: what a page's data is known by (`key`) and how it is loaded. */
export type CallResource<T> = { key: string; load: (signal: AbortSignal) => Promise<T> };

/** A call's arguments as sent (the types are checked where the call is made). */
type SentArgs = { params?: Record<string, string | number>; query?: Query; body?: unknown } & CallOptions;

/** How the client sends one request (from the call's access and its options). */
type RequestOptions = {
  signal?: AbortSignal;
  /** Sent without the session cookie (a public call, or one with a credential of its own). */
  anonymous?: boolean;
  headers?: Record<string, string>;
  cache?: RequestCache;
  /** Whether the browser sends its cookies, e.g. 'same-origin' for the operator's session on /ops. */
  credentials?: RequestCredentials;
};

/** The moves of /ops on a released part, each a call of the contract. */
export type OpsReleaseAction = 'rollback' | 'pin' | 'unpin' | 'promote' | 'abort' | 'preview';

const ERROR_CODES: readonly ApiErrorCode[] = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
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
    case 405:
      return 'method_not_allowed';
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
  const error = typeof body === 'object' && body !== null && 'error' in body ? (body as { error: unknown }).error : null;
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    const knownCode = ERROR_CODES.find((c) => c === code) ?? codeForStatus(status);
    const text = typeof message === 'string' && message ? message : `Požiadavka zlyhala (HTTP ${status}).`;
    return new ApiError(status, knownCode, text);
  }
  return new ApiError(status, codeForStatus(status), `Požiadavka zlyhala (HTTP ${status}).`);
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
    // An answer whose body cannot be read is no answer: an empty one here would resolve the call with
    // `undefined`, and a caller reading its `data` would throw (an abort while the body arrives, a
    // connection that fails midway). Aborted, it rejects as aborted; otherwise as a network failure.
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      if (init?.signal?.aborted || (cause instanceof DOMException && cause.name === 'AbortError')) throw cause;
      if (!response.ok) throw refused(response, asShopper, undefined);
      throw new ApiError(0, 'internal', NETWORK_ERROR_MESSAGE, { cause });
    }
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

  /** What a call sends as: the contract's access. */
  function sendOptions(name: CallName | DownloadName, options: CallOptions): RequestOptions {
    const { signal, cache, headers } = options;
    const init: RequestOptions = { signal, cache, headers };
    switch (accessOf(name)) {
      case 'public':
        return { ...init, anonymous: true };
      // The operator's session cookie (same origin) and never the shopper's, so a 401 there does not sign the shopper out.
      case 'ops':
        return { ...init, anonymous: true, credentials: 'same-origin', cache: 'no-store' };
      default:
        return init;
    }
  }

  /**
   * One call of the contract: `call('GET /api/product/:url', { params: { url } })`. The path's
   * `:params` are URI-encoded; a change without a body sends `{}` (a JSON body, as every change
   * made with a cookie must be).
   */
  function call<K extends CallName>(name: K, ...[args]: ArgsOf<CallArgs<K> & CallOptions>): Promise<CallAnswer<K>> {
    const given = (args as unknown as SentArgs | undefined) ?? {};
    const { method, path } = splitCall(name, given.params);
    return request<CallAnswer<K>>(method, path, given.query, method === 'GET' ? undefined : (given.body ?? {}), sendOptions(name, given));
  }

  /**
   * A binary answer (invoice PDF, complaint photo) as a Blob: `download('GET /api/orders/:token/invoice', { params })`;
   * errors and the 401 sign-out as for JSON calls.
   */
  async function download<K extends DownloadName>(name: K, args: DownloadCalls[K] & CallOptions): Promise<Blob> {
    const { path } = splitCall(name, args.params);
    const { response, asShopper } = await send('GET', path, undefined, undefined, sendOptions(name, args), null);
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
   * A call as a page's resource (for `useResource`): its key from the call and its arguments, and
   * its load with the hook's abort signal.
   */
  function resource<K extends CallName>(name: K, ...[args]: ArgsOf<CallArgs<K>>): CallResource<CallAnswer<K>> {
    const given = (args as unknown as SentArgs | undefined) ?? {};
    const send = call as unknown as (name: K, args: SentArgs) => Promise<CallAnswer<K>>;
    return { key: keyOf(name, given), load: (signal) => send(name, { ...given, signal }) };
  }

  return { call, download, resource };
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

/** The default client's calls, downloads and resources. */
export const { call, download, resource } = api;
