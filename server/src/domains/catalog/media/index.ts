import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { IMAGE_DEFAULT_WIDTH, IMAGE_WIDTHS, type ImageWidth } from '@shop/shared-kernel/rules';
import { notFound } from '../../../infra/http/errors.ts';
import { ID_SCHEMA } from '../../../infra/http/validation.ts';
import { CatalogRepository } from '../products/repository/catalog.repository.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { productSvg } from './product-image.ts';
import { PngRenderer } from './png-renderer.ts';

const idParams = { type: 'object', required: ['id'], properties: { id: ID_SCHEMA } } as const;
const widthQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { w: { type: 'integer', enum: [...IMAGE_WIDTHS] } },
} as const;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Product pictures generated on the fly (registered under /media, outside /api and its contract:
 * an image answer, no JSON schema). The product and its category path come from the catalog's
 * repository; product-image.ts draws the picture as SVG, png-renderer.ts turns it into the PNG
 * the shop shows (`?w=` one of the kernel's IMAGE_WIDTHS).
 */
export const mediaRoutes: FastifyPluginAsync<ApiDeps> = async (app, { db }) => {
  const catalog = new CatalogRepository(db);
  const renderer = new PngRenderer();
  app.addHook('onClose', () => renderer.close());

  async function drawing(id: number): Promise<string> {
    const product = await catalog.productForImage(id);
    if (!product) throw notFound('Obrázok sa nenašiel.');
    const tree = await catalog.categoryTree();
    const path = tree
      .path(product.cat_id)
      .map((category) => category.cat_url)
      .join(' ');
    return productSvg(product.p_name, tree.root(product.cat_id)?.cat_url, path);
  }

  app.get<{ Params: { id: number }; Querystring: { w?: ImageWidth } }>(
    '/p/:id.png',
    { schema: { params: idParams, querystring: widthQuery } },
    async (request, reply) => {
      const svg = await drawing(request.params.id);
      const width = request.query.w ?? IMAGE_DEFAULT_WIDTH;
      // The drawing's own text is in the key: a renamed product is drawn anew.
      const key = `${width}:${createHash('sha1').update(svg).digest('base64url')}`;
      const png = await renderer.render(key, svg, width);
      return reply.header('cache-control', IMMUTABLE).header('x-content-type-options', 'nosniff').type('image/png').send(png);
    },
  );

  app.get<{ Params: { id: number } }>('/p/:id.svg', { schema: { params: idParams } }, async (request, reply) => {
    const svg = await drawing(request.params.id);
    return reply
      .header('cache-control', IMMUTABLE)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .type('image/svg+xml; charset=utf-8')
      .send(svg);
  });
};
