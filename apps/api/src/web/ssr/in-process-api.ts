/**
 * The kernel's API client on the server: a page's data comes from this API in-process (Fastify's
 * inject), through the same routes, validation and caches as a browser's request, without a socket.
 */
import type { FastifyInstance } from 'fastify';
import { api, configureApi } from '@shop/shared-kernel';

/** Points the server's copy of the kernel's client (the one the parts' server builds use) at this API. */
export function serveApiInProcess(app: FastifyInstance): void {
  configureApi({ fetch: inProcessFetch(app) });
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

/** The answer's JSON; an error status rejects with an error carrying it and the answer's Slovak message, as the kernel's client does. */
async function inProcessGet(app: FastifyInstance, path: string): Promise<unknown> {
  const answer = await app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } });
  let body: unknown;
  try {
    body = answer.payload ? JSON.parse(answer.payload) : undefined;
  } catch {
    body = undefined;
  }
  if (answer.statusCode >= 200 && answer.statusCode < 300 && body !== undefined) return body;
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  throw Object.assign(new Error(typeof message === 'string' ? message : `Požiadavka zlyhala (HTTP ${answer.statusCode}).`), {
    status: answer.statusCode >= 400 ? answer.statusCode : 500,
  });
}

/** The stored redirect of a path that is not (or no longer) a page, with the query or without. */
export async function storedRedirect(url: string): Promise<string | null> {
  const pathname = url.split('?')[0] ?? '/';
  for (const candidate of url === pathname ? [url] : [url, pathname]) {
    const found = await api.call('GET /api/redirect', { query: { path: candidate } }).catch(() => null);
    const target = found?.data?.to;
    if (target && target !== candidate) return target;
  }
  return null;
}

function inProcessFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname + input.search : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
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
