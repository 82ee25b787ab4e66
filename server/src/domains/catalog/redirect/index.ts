import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentCalls } from '@shop/shared-kernel/schemas';
import { isAbsoluteTarget, redirectKey, redirectTable, resolveRedirect, safeRedirectTarget } from '@shop/shared-kernel/rules';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import { operatorOnly } from '../../../infra/auth/operator-auth.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { RedirectRepository } from './redirect.repository.ts';
import { onRedirectsChanged, RedirectLookup, redirectsChanged } from './redirect-lookup.ts';

/** A path asked about without its leading slash ("akcia") is the shop's path all the same. */
const asPath = (path: string) => (path.startsWith('/') ? path : `/${path}`);

/** Paths the shop itself serves outside its pages: an old address there would lock a part of it out. */
const RESERVED = /^\/(api|media|builds|assets|ops|preview)(\/|$)/;

/** The answer's validator: the same list gives the same tag on every server. */
function listTag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

function matchesTag(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((given) => given.trim().replace(/^W\//, '') === tag || given.trim() === '*');
}

function invalid(message: string): ApiError {
  return new ApiError(400, 'validation_failed', message);
}

/** Old URLs that moved: the full list (requirements R7.5), a lookup for one path, and the operator's changes. */
export const redirectRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const redirects = new RedirectRepository(deps.db);
  // The one-path lookup answers from the table kept in memory, as the page host does.
  const kept = new RedirectLookup(() => redirects.all());
  const stopListening = onRedirectsChanged(() => kept.invalidate());
  plugin.addHook('onClose', async () => stopListening());

  // The shell keeps the list and revalidates it now and then: unchanged, it is a 304 without a body.
  app.route({
    ...callRoute(contentCalls, 'GET /api/redirect/list'),
    handler: async (request, reply) => {
      const data = await redirects.all();
      const tag = listTag(JSON.stringify(data));
      reply.header('cache-control', 'public, no-cache').header('etag', tag);
      // Not in the call's answers (it has no body): sent past the typed reply.
      if (matchesTag(request.headers['if-none-match'], tag)) return (reply as FastifyReply).code(304).send();
      return { data };
    },
  });

  app.route({
    ...callRoute(contentCalls, 'GET /api/redirect'),
    handler: async (request) => {
      const target = resolveRedirect(await kept.table(), asPath(request.query.path));
      return { data: target === null ? null : { to: target, external: isAbsoluteTarget(target) } };
    },
  });

  await app.register(async (operator) => {
    operator.addHook('onRequest', operatorOnly(deps.checkout.operatorToken));
    const routes = operator.withTypeProvider<TypeBoxTypeProvider>();

    routes.route({
      ...callRoute(contentCalls, 'PUT /api/operator/redirects'),
      handler: async (request) => {
        const { old_url: givenOld, new_url: givenNew } = request.body;
        const oldUrl = /[?#\s\\]/.test(givenOld) ? null : redirectKey(givenOld);
        if (oldUrl === null || oldUrl === '/' || RESERVED.test(oldUrl))
          throw invalid('Stará adresa musí byť cesta obchodu bez parametrov, napríklad /doprava-a-platba.');
        const newUrl = safeRedirectTarget(givenNew);
        if (newUrl === null) throw invalid('Nová adresa musí byť cesta obchodu (/…) alebo úplná adresa http(s)://…');
        const others = (await redirects.all()).filter((entry) => redirectKey(entry.old_url) !== oldUrl);
        // Followed from the new table, the old address must lead somewhere else, never round a loop.
        if (resolveRedirect(redirectTable([{ old_url: oldUrl, new_url: newUrl }, ...others]), oldUrl) === null)
          throw new ApiError(409, 'conflict', 'Presmerovanie by viedlo späť na starú adresu (do slučky).');
        await redirects.put(oldUrl, newUrl);
        redirectsChanged();
        return { data: { old_url: oldUrl, new_url: newUrl } };
      },
    });

    routes.route({
      ...callRoute(contentCalls, 'DELETE /api/operator/redirects'),
      handler: async (request) => {
        const oldUrl = redirectKey(request.query.old_url);
        if (oldUrl === null || !(await redirects.remove(oldUrl))) throw notFound('Presmerovanie tejto adresy neexistuje.');
        redirectsChanged();
        return { data: { ok: true as const } };
      },
    });
  });
};
