import type { FastifyPluginAsync } from 'fastify';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import { notFound } from '../../lib/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { BLOG_PAGE_SIZE, BlogRepository } from './blog.repository.ts';

type Answer<K extends keyof ApiCalls> = ApiCalls[K]['answer'];

const slug = { type: 'string', minLength: 1, maxLength: 200, pattern: '^[a-z0-9-]+$' } as const;

/** The blog: pages of posts (all or by tag), the tags with counts, one post. */
export const blogRoutes: FastifyPluginAsync<ApiDeps> = async (app, { db }) => {
  const blog = new BlogRepository(db);

  app.get<{ Querystring: { tag?: string; page: number }; Reply: Answer<'GET /api/blog'> }>(
    '/blog',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { tag: slug, page: { type: 'integer', minimum: 1, maximum: 10000, default: 1 } },
          additionalProperties: false,
        },
      },
    },
    async (request) => {
      const { tag, page } = request.query;
      const tagRow = tag === undefined ? undefined : await blog.tagBySlug(tag);
      if (tag !== undefined && !tagRow) throw notFound('Téma blogu sa nenašla.');
      const { items, total } = await blog.page({ tagId: tagRow?.tag_id, page });
      return { data: items, meta: { page, pageSize: BLOG_PAGE_SIZE, total, pageCount: Math.max(1, Math.ceil(total / BLOG_PAGE_SIZE)) } };
    },
  );

  app.get<{ Reply: Answer<'GET /api/blog/tags'> }>('/blog/tags', async () => ({ data: await blog.tags() }));

  app.get<{ Params: { slug: string }; Reply: Answer<'GET /api/blog/post/:slug'> }>(
    '/blog/post/:slug',
    { schema: { params: { type: 'object', required: ['slug'], properties: { slug } } } },
    async (request) => {
      const post = await blog.post(request.params.slug);
      if (!post) throw notFound('Článok sa nenašiel.');
      return { data: post };
    },
  );
};
