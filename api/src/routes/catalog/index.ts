import type { FastifyPluginAsync } from 'fastify';
import type {
  ApiCalls,
  CatalogCalls,
  CategoryDetail,
  ProductDetail,
  ProductSort,
} from '@shop/shared-kernel/contract';
import { notFound } from '../../lib/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { CatalogRepository } from './catalog.repository.ts';
import { facetsQuery, PAGE_SIZE, productsQuery, urlParams, variantDetailBody } from './schemas.ts';
import { listingFacets, SQLITE_FACET_CHUNK_IDS } from './facets.ts';
import { toProductFilter } from './listing-query.ts';
import type { RawListingQuery } from './listing-query.ts';
import { lowestPrices } from './price-history.ts';
import { productImageUrl, toBrand } from './mappers.ts';

export { PAGE_SIZE };
const HOME_TILES = 8;

type Answer<K extends keyof ApiCalls> = ApiCalls[K]['answer'];
type ProductsQuery = RawListingQuery & { page: number; sort: ProductSort };

/** Catalogue: home, categories, product listings, product detail, variant detail. */
export const catalogRoutes: FastifyPluginAsync<ApiDeps> = async (app, { db, dialect }) => {
  const facetOptions = { chunkIds: dialect === 'sqlite' ? SQLITE_FACET_CHUNK_IDS : null };
  const repo = new CatalogRepository(db);

  app.get<{ Reply: Answer<'GET /api/home'> }>('/home', async () => {
    const [tree, brands, sale, newest] = await Promise.all([
      repo.categoryTree(),
      repo.brands(),
      repo.listProducts({ saleOnly: true }, 'popular', { limit: HOME_TILES, offset: 0 }),
      repo.listProducts({}, 'newest', { limit: HOME_TILES, offset: 0 }),
    ]);
    return { data: { categories: tree.roots, sale: sale.items, newest: newest.items, brands } };
  });

  app.get<{ Params: { url: string }; Reply: Answer<'GET /api/category/:url'> }>(
    '/category/:url',
    { schema: { params: urlParams } },
    async (request) => {
      const tree = await repo.categoryTree();
      const category = tree.findByUrl(request.params.url);
      if (!category) throw notFound('Kategória sa nenašla.');
      const data: CategoryDetail = {
        cat_id: category.cat_id,
        cat_url: category.cat_url,
        cat_name: category.cat_name,
        cat_description: category.cat_description,
        breadcrumbs: tree.breadcrumbs(category.cat_id),
        children: tree.node(category.cat_id)?.children ?? [],
      };
      return { data };
    },
  );

  app.get<{ Params: { url: string }; Reply: Answer<'GET /api/brand/:url'> }>(
    '/brand/:url',
    { schema: { params: urlParams } },
    async (request) => {
      const brand = await repo.brandByUrl(request.params.url);
      if (!brand) throw notFound('Značka sa nenašla.');
      return { data: brand };
    },
  );

  app.get<{ Querystring: ProductsQuery; Reply: Answer<'GET /api/products'> }>(
    '/products',
    { schema: { querystring: productsQuery } },
    async (request) => {
      const { page, sort } = request.query;
      const filter = await toProductFilter(db, await repo.categoryTree(), request.query);
      const { items, total } = await repo.listProducts(filter, sort, {
        limit: PAGE_SIZE,
        offset: (page - 1) * PAGE_SIZE,
      });
      return {
        data: items,
        meta: { page, pageSize: PAGE_SIZE, total, pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)) },
      };
    },
  );

  app.get<{ Querystring: RawListingQuery; Reply: CatalogCalls['GET /api/products/facets']['answer'] }>(
    '/products/facets',
    { schema: { querystring: facetsQuery } },
    async (request) => {
      const filter = await toProductFilter(db, await repo.categoryTree(), request.query);
      return { data: await listingFacets(db, filter, facetOptions) };
    },
  );

  app.get<{ Params: { url: string }; Reply: Answer<'GET /api/product/:url'> }>(
    '/product/:url',
    { schema: { params: urlParams } },
    async (request) => {
      const product = await repo.productByUrl(request.params.url);
      if (!product) throw notFound('Produkt sa nenašiel.');
      const [tree, variants, attributes, accessories] = await Promise.all([
        repo.categoryTree(),
        repo.productVariants(product.p_id),
        repo.productAttributes(product.p_id),
        repo.productAccessories(product.p_id),
      ]);
      const parent = tree.path(product.cat_id).at(-2);
      const [lowest, related] = await Promise.all([
        lowestPrices(db, variants),
        repo.relatedProducts(product.p_id, [[product.cat_id], ...(parent ? [tree.subtreeIds(parent.cat_id)] : [])]),
      ]);
      const data: ProductDetail = {
        p_id: product.p_id,
        p_url: product.p_url,
        p_name: product.p_name,
        p_description: product.p_description,
        p_images: [productImageUrl(product.p_id)],
        brand: toBrand(product),
        breadcrumbs: tree.breadcrumbs(product.cat_id),
        variants,
        attributes,
        lowestPrices: [...lowest].map(([v_id, price]) => ({ v_id, price })),
        accessories,
        related,
      };
      return { data };
    },
  );

  app.post<{ Body: { v_id: number }; Reply: Answer<'POST /api/product/variant/detail'> }>(
    '/product/variant/detail',
    { schema: { body: variantDetailBody } },
    async (request) => {
      const variant = await repo.variant(request.body.v_id);
      if (!variant) throw notFound('Variant produktu sa nenašiel.');
      return { data: variant };
    },
  );
};
