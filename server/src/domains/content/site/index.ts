import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { sanitizeContentHtml } from '../../../infra/pure/content-html.ts';
import { CatalogRepository } from '../../catalog/products/repository/catalog.repository.ts';
import { BLOG_PAGE_SIZE, BlogRepository } from './blog.repository.ts';
import { ContentRepository } from './content.repository.ts';

/** Site-wide data (menu, site, static pages) and the blog (pages of posts, all or by tag; the tags; one post). */
export const contentRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, { db }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const content = new ContentRepository(db);
  const blog = new BlogRepository(db);
  const catalog = new CatalogRepository(db);

  app.route({
    ...callRoute(contentCalls, 'GET /api/blog'),
    handler: async (request) => {
      const { tag, page = 1 } = request.query;
      const tagRow = tag === undefined ? undefined : await blog.tagBySlug(tag);
      if (tag !== undefined && !tagRow) throw notFound('Téma blogu sa nenašla.');
      const { items, total } = await blog.page({ tagId: tagRow?.tag_id, page });
      return { data: items, meta: { page, pageSize: BLOG_PAGE_SIZE, total, pageCount: Math.max(1, Math.ceil(total / BLOG_PAGE_SIZE)) } };
    },
  });

  app.route({
    ...callRoute(contentCalls, 'GET /api/blog/tags'),
    handler: async () => ({ data: await blog.tags() }),
  });

  app.route({
    ...callRoute(contentCalls, 'GET /api/blog/post/:slug'),
    handler: async (request) => {
      const post = await blog.post(request.params.slug);
      if (!post) throw notFound('Článok sa nenašiel.');
      return { data: post };
    },
  });

  app.route({
    ...callRoute(contentCalls, 'GET /api/menu'),
    handler: async () => {
      const [tree, links] = await Promise.all([catalog.categoryTree(), content.menuLinks()]);
      return { data: { categories: tree.roots, links } };
    },
  });

  app.route({
    ...callRoute(contentCalls, 'GET /api/site'),
    handler: async () => {
      const site = await content.site();
      if (!site) throw new ApiError(500, 'internal', 'Údaje obchodu nie sú nastavené.');
      return { data: site };
    },
  });

  app.route({
    ...callRoute(contentCalls, 'GET /api/page/:slug'),
    handler: async (request) => {
      const page = await content.page(request.params.slug);
      if (!page) throw notFound('Stránka sa nenašla.');
      // Sanitised when stored and again when served.
      return { data: { ...page, contentHtml: sanitizeContentHtml(page.contentHtml) } };
    },
  });
};
