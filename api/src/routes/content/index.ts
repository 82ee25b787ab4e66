import type { FastifyPluginAsync } from 'fastify';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import { ApiError, notFound } from '../../lib/errors.ts';
import { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { ApiDeps } from '../deps.ts';
import { ContentRepository } from './content.repository.ts';
import { blogRoutes } from './blog.ts';
import { sanitizeContentHtml } from '../../lib/content-html.ts';

type Answer<K extends keyof ApiCalls> = ApiCalls[K]['answer'];

const slugParams = {
  type: 'object',
  required: ['slug'],
  properties: { slug: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

/** Site-wide data (menu, site, static pages). */
export const contentRoutes: FastifyPluginAsync<ApiDeps> = async (app, deps) => {
  const { db } = deps;
  const content = new ContentRepository(db);
  await app.register(blogRoutes, deps);
  const catalog = new CatalogRepository(db);

  app.get<{ Reply: Answer<'GET /api/menu'> }>('/menu', async () => {
    const [tree, links] = await Promise.all([catalog.categoryTree(), content.menuLinks()]);
    return { data: { categories: tree.roots, links } };
  });

  app.get<{ Reply: Answer<'GET /api/site'> }>('/site', async () => {
    const site = await content.site();
    if (!site) throw new ApiError(500, 'internal', 'Údaje obchodu nie sú nastavené.');
    return { data: site };
  });

  app.get<{ Params: { slug: string }; Reply: Answer<'GET /api/page/:slug'> }>(
    '/page/:slug',
    { schema: { params: slugParams } },
    async (request) => {
      const page = await content.page(request.params.slug);
      if (!page) throw notFound('Stránka sa nenašla.');
      // Sanitised when stored and again when served.
      return { data: { ...page, contentHtml: sanitizeContentHtml(page.contentHtml) } };
    },
  );
};
