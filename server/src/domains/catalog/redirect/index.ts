import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentCalls } from '@shop/shared-kernel/schemas';
import { isAbsoluteTarget, resolveRedirect } from '@shop/shared-kernel/rules';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { RedirectRepository } from './redirect.repository.ts';
import { onRedirectsChanged, RedirectLookup } from './redirect-lookup.ts';

/** A path asked about without its leading slash ("akcia") is the shop's path all the same. */
const asPath = (path: string) => (path.startsWith('/') ? path : `/${path}`);

/** The answer's validator: the same list gives the same tag on every server. */
function listTag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

function matchesTag(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((given) => given.trim().replace(/^W\//, '') === tag || given.trim() === '*');
}

/** Old URLs that moved: the full list (requirements R7.5) and a lookup for one path (the operator's changes: operator.ts). */
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
};
