import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { RedirectRepository } from './redirect.repository.ts';

const EXTERNAL = /^https?:\/\//i;

/** "/akcia/" and "/akcia" are the same page; the query string is not part of the match. */
export function normalisePath(path: string): string {
  const withoutQuery = path.split(/[?#]/, 1)[0] ?? '';
  const withSlash = withoutQuery.startsWith('/') ? withoutQuery : `/${withoutQuery}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') || '/' : withSlash;
}

/** Old URLs that moved: the full list (spec section 7) and a lookup for one path. */
export const redirectRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, { db }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const redirects = new RedirectRepository(db);

  app.route({
    ...callRoute(contentCalls, 'GET /api/redirect/list'),
    handler: async () => ({ data: await redirects.all() }),
  });

  app.route({
    ...callRoute(contentCalls, 'GET /api/redirect'),
    handler: async (request) => {
      const path = normalisePath(request.query.path);
      const target = await redirects.targetOf(path);
      if (target === null || normalisePath(target) === path) return { data: null };
      return { data: { to: target, external: EXTERNAL.test(target) } };
    },
  });
};
