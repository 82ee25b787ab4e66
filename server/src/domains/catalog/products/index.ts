import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { MAX_RECORD_ID } from '@shop/shared-kernel/contract';
import { catalogCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { CatalogService } from './catalog.service.ts';
import { CatalogRepository } from './repository/catalog.repository.ts';

/** Catalog: home, categories, brands, product listings and their facets, product detail, variant detail. */
export const catalogRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, { db, warmCatalog }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const repository = new CatalogRepository(db);
  const catalog = new CatalogService(repository);

  if (warmCatalog) {
    // Every category's kept counts and listing index, one category after another, once the server is ready; a category a shopper asks for meanwhile loads once for both.
    let closing = false;
    plugin.addHook('onClose', async () => {
      closing = true;
    });
    plugin.addHook('onReady', async () => {
      const started = performance.now();
      void repository
        .warmListings(() => closing)
        .then(
          (categories) => plugin.log.info({ categories, ms: Math.round(performance.now() - started) }, 'listing index loaded'),
          (err: unknown) => {
            if (!closing) plugin.log.warn({ err }, 'listing index not loaded ahead: each category loads at its first filtered listing');
          },
        );
    });
  }

  app.route({
    ...callRoute(catalogCalls, 'GET /api/home'),
    handler: async () => ({ data: await catalog.home() }),
  });

  app.route({
    ...callRoute(catalogCalls, 'GET /api/category/:url'),
    handler: async (request) => ({ data: await catalog.category(request.params.url) }),
  });

  app.route({
    ...callRoute(catalogCalls, 'GET /api/brand/:url'),
    handler: async (request) => ({ data: await catalog.brand(request.params.url) }),
  });

  app.route({
    ...callRoute(catalogCalls, 'GET /api/products'),
    handler: async (request) => catalog.listing(request.query),
  });

  app.route({
    ...callRoute(catalogCalls, 'GET /api/products/facets'),
    handler: async (request) => ({ data: await catalog.facets(request.query) }),
  });

  app.route({
    ...callRoute(catalogCalls, 'GET /api/product/:url'),
    handler: async (request) => ({ data: await catalog.product(request.params.url) }),
  });

  app.route({
    ...callRoute(catalogCalls, 'GET /api/product/variants'),
    // The query's pattern bounds the list (ids of up to ten digits): one above the largest id is no variant.
    handler: async (request) => ({
      data: await catalog.variants(
        request.query.ids
          .split(',')
          .map(Number)
          .filter((id) => id <= MAX_RECORD_ID),
      ),
    }),
  });

  app.route({
    ...callRoute(catalogCalls, 'POST /api/product/variant/detail'),
    handler: async (request) => ({ data: await catalog.variant(request.body.v_id) }),
  });
};
