/**
 * The kernel's API client on the server: a page's data comes from this API in-process (Fastify's
 * inject), through the same routes, validation and caches as a browser's request, without a socket.
 * Such a load is a part of the page's request, not a request of its own: it has no log line and no
 * request metrics unless it fails (infra/observability's IN_PROCESS_HEADER).
 */
import type { FastifyInstance } from 'fastify';
import { api, configureApi } from '@shop/shared-kernel';
import { resolveRedirect } from '@shop/shared-kernel/rules';
import { onRedirectsChanged, REDIRECTS_MAX_AGE_MS, RedirectLookup } from '../../domains/catalog/public.ts';
import { IN_PROCESS_HEADER, IN_PROCESS_SECRET } from '../../infra/observability/observability.ts';

/** Points the server's copy of the kernel's client (the one the parts' server builds use) at this API. */
export function serveApiInProcess(app: FastifyInstance): void {
  configureApi({ fetch: inProcessFetch(app) });
  stopListening();
  // The list through the API's own route (the one the browser's shell keeps too), kept in memory.
  const lookup = new RedirectLookup(async () => (await api.call('GET /api/redirect/list')).data);
  redirects = lookup;
  stopListening = onRedirectsChanged(() => lookup.invalidate());
  app.addHook('onClose', async () => {
    if (redirects === lookup) stopListening();
  });
  directGet = (path) => inProcessGet(app, path);
}

let directGet: ((path: string) => Promise<unknown>) | null = null;

/**
 * A page's GET load by its resource key ("GET /api/product/tehla": the key is the call's method and
 * URL, see the kernel's keyOf), straight through the API in-process: the same routes, validation
 * and caches as the kernel's client, without building a fetch Request and Response around each
 * answer. Null for any other key, or before the API serves in-process: the load's own client then.
 */
export function directLoad(key: string): (() => Promise<unknown>) | null {
  const get = directGet;
  if (!get || !key.startsWith('GET /api/')) return null;
  return () => get(key.slice(4));
}

const IN_PROCESS_GET = { accept: 'application/json', [IN_PROCESS_HEADER]: IN_PROCESS_SECRET };

/** The JSON text each in-process answer came as, by the value parsed from it (see answerText). */
const answerTexts = new WeakMap<object, string>();

/**
 * The JSON text a page's data came as from the API, when it came in-process: the page embeds it
 * as it is for the browser's hydration (the same answer the browser would have got) instead of
 * stringifying the parsed value again. Undefined for any other value.
 */
export function answerText(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? answerTexts.get(value) : undefined;
}

/** The answer's JSON; an error status rejects with an error carrying it and the answer's Slovak message, as the kernel's client does. */
async function inProcessGet(app: FastifyInstance, path: string): Promise<unknown> {
  const answer = await app.inject({ method: 'GET', url: path, headers: IN_PROCESS_GET });
  let body: unknown;
  try {
    body = answer.payload ? JSON.parse(answer.payload) : undefined;
  } catch {
    body = undefined;
  }
  if (answer.statusCode >= 200 && answer.statusCode < 300 && body !== undefined) {
    if (typeof body === 'object' && body !== null) answerTexts.set(body, answer.payload);
    return body;
  }
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  throw Object.assign(new Error(typeof message === 'string' ? message : `Požiadavka zlyhala (HTTP ${answer.statusCode}).`), {
    status: answer.statusCode >= 400 ? answer.statusCode : 500,
  });
}

let redirects: RedirectLookup | null = null;
let stopListening: () => void = () => undefined;

/**
 * A 301 to a stored redirect may be kept by a browser for five minutes, by a shared cache (CDN, the
 * nginx edge) only as long as a server keeps its list, so an operator's change reaches everyone who
 * has not followed the old one yet within that bound.
 */
export const STORED_REDIRECT_CACHE_CONTROL = `public, max-age=300, s-maxage=${REDIRECTS_MAX_AGE_MS / 1000}`;

/**
 * Where a direct load of `url` is sent by a stored redirect (any path: a page of the shop or not);
 * null when it did not move. The list is kept in memory, so a page costs a map lookup.
 */
export async function storedRedirect(url: string): Promise<string | null> {
  if (!redirects) return null;
  return resolveRedirect(await redirects.table(), url);
}

function inProcessFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname + input.search : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
    headers[IN_PROCESS_HEADER] = IN_PROCESS_SECRET;
    const answer = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url,
      headers,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(key, item);
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers: responseHeaders });
  };
}
