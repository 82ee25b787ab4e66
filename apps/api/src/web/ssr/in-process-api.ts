/**
 * The kernel's API client on the server: a page's data comes from this API in-process (Fastify's
 * inject), through the same routes, validation and caches as a browser's request, without a socket.
 */
import type { FastifyInstance } from 'fastify';
import { api, configureApi } from '@shop/shared-kernel';

/** Points the server's copy of the kernel's client (the one the parts' server builds use) at this API. */
export function serveApiInProcess(app: FastifyInstance): void {
  configureApi({ fetch: inProcessFetch(app) });
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
