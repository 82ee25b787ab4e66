import type { FastifyPluginAsync } from 'fastify';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import type { ApiDeps } from '../deps.ts';

type Answer<K extends keyof ApiCalls> = ApiCalls[K]['answer'];

const EXTERNAL = /^https?:\/\//i;

/** "/akcia/" and "/akcia" are the same page; the query string is not part of the match. */
export function normalisePath(path: string): string {
  const withoutQuery = path.split(/[?#]/, 1)[0] ?? '';
  const withSlash = withoutQuery.startsWith('/') ? withoutQuery : `/${withoutQuery}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') || '/' : withSlash;
}

const lookupQuery = {
  type: 'object',
  required: ['path'],
  properties: { path: { type: 'string', minLength: 1, maxLength: 2000 } },
} as const;

/** Old URLs that moved: the full list (spec section 7) and a lookup for one path. */
export const redirectRoutes: FastifyPluginAsync<ApiDeps> = async (app, { db }) => {
  app.get<{ Reply: Answer<'GET /api/redirect/list'> }>('/redirect/list', async () => {
    const data = await db.selectFrom('redirects').select(['old_url', 'new_url']).orderBy('old_url').execute();
    return { data };
  });

  app.get<{ Querystring: { path: string }; Reply: Answer<'GET /api/redirect'> }>(
    '/redirect',
    { schema: { querystring: lookupQuery } },
    async (request) => {
      const path = normalisePath(request.query.path);
      const row = await db
        .selectFrom('redirects')
        .select('new_url')
        .where('old_url', 'in', [path, `${path}/`])
        .orderBy('old_url')
        .executeTakeFirst();
      if (!row || normalisePath(row.new_url) === path) return { data: null };
      return { data: { to: row.new_url, external: EXTERNAL.test(row.new_url) } };
    },
  );
};
