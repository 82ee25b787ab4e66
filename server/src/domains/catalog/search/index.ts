import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { catalogCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { CatalogRepository } from '../products/repository/catalog.repository.ts';
import { SearchRepository } from './search.repository.ts';
import { SearchService } from './search.service.ts';

/** Search: ranked results with the categories whose names match, and suggestions while typing. */
export const searchRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, { db, dialect }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const search = new SearchService(new CatalogRepository(db), new SearchRepository(db, dialect));

  app.route({
    ...callRoute(catalogCalls, 'GET /api/search'),
    handler: async (request) => search.results(request.query.q, request.query.page),
  });

  app.route({
    ...callRoute(catalogCalls, 'GET /api/search/suggest'),
    handler: async (request) => ({ data: await search.suggestions(request.query.q) }),
  });
};
