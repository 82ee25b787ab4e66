import type { FastifyPluginAsync } from 'fastify';
import type { CatalogCalls } from '@shop/shared-kernel/contract';
import type { ApiDeps } from '../deps.ts';
import { CatalogRepository } from '../catalog/catalog.repository.ts';
import { productImageUrl } from '../catalog/mappers.ts';
import { PAGE_SIZE } from '../catalog/schemas.ts';
import { matchingCategories, queryTokens, SearchRepository } from './search.repository.ts';
import { searchQuery, suggestQuery } from './schemas.ts';

type Answer<K extends keyof CatalogCalls> = CatalogCalls[K]['answer'];

const SUGGESTED_PRODUCTS = 6;
const SUGGESTED_CATEGORIES = 4;
const RESULT_CATEGORIES = 8;

/** Search: ranked results with the categories whose names match, and suggestions while typing. */
export const searchRoutes: FastifyPluginAsync<ApiDeps> = async (app, { db, dialect }) => {
  const catalog = new CatalogRepository(db);
  const search = new SearchRepository(db, dialect);

  app.get<{ Querystring: { q: string; page: number }; Reply: Answer<'GET /api/search'> }>(
    '/search',
    { schema: { querystring: searchQuery } },
    async (request) => {
      const { q, page } = request.query;
      const tokens = queryTokens(q);
      const [tree, { ids, total }] = await Promise.all([catalog.categoryTree(), search.results(tokens, PAGE_SIZE, (page - 1) * PAGE_SIZE)]);
      return {
        data: await catalog.summaries(ids),
        meta: { page, pageSize: PAGE_SIZE, total, pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)) },
        categories: matchingCategories(tree, tokens, RESULT_CATEGORIES),
      };
    },
  );

  app.get<{ Querystring: { q: string }; Reply: Answer<'GET /api/search/suggest'> }>(
    '/search/suggest',
    { schema: { querystring: suggestQuery } },
    async (request) => {
      const tokens = queryTokens(request.query.q);
      const [tree, products] = await Promise.all([catalog.categoryTree(), search.suggestions(tokens, SUGGESTED_PRODUCTS)]);
      return {
        data: {
          products: products.map((p) => ({ ...p, p_image: productImageUrl(p.p_id) })),
          categories: matchingCategories(tree, tokens, SUGGESTED_CATEGORIES),
        },
      };
    },
  );
};
