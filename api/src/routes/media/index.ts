import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../lib/errors.ts';
import { ID_SCHEMA } from '../../lib/validation.ts';
import { CatalogRepository } from '../catalog/repository/catalog.repository.ts';
import type { ApiDeps } from '../../lib/deps.ts';
import { productSvg } from './product-image.ts';

const idParams = { type: 'object', required: ['id'], properties: { id: ID_SCHEMA } } as const;

/**
 * Product pictures generated on the fly (registered under /media, outside /api and its contract:
 * an SVG answer, no JSON schema). The product and its category path come from the catalogue's
 * repository; product-image.ts draws the picture.
 */
export const mediaRoutes: FastifyPluginAsync<ApiDeps> = async (app, { db }) => {
  const catalog = new CatalogRepository(db);

  app.get<{ Params: { id: number } }>('/p/:id.svg', { schema: { params: idParams } }, async (request, reply) => {
    const product = await catalog.productForImage(request.params.id);
    if (!product) throw notFound('Obrázok sa nenašiel.');
    const tree = await catalog.categoryTree();
    const path = tree.path(product.cat_id).map((category) => category.cat_url).join(' ');
    const svg = productSvg(product.p_name, tree.root(product.cat_id)?.cat_url, path);
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .type('image/svg+xml; charset=utf-8')
      .send(svg);
  });
};
