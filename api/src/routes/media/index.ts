import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../lib/errors.ts';
import { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { ApiDeps } from '../deps.ts';
import { productSvg } from './product-image.ts';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;

/** Product pictures generated on the fly (registered under /media, outside /api). */
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
