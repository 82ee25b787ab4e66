/**
 * The data of the content area's server-rendered routes (the route names of vite.config.ts): the
 * same calls the pages give `useResource`, so the shop's server loads all of a page's data at once
 * and renders it a single time. route-data.test.tsx renders every route with only this data.
 */
import { resource } from '@shop/shared-kernel';
import type { AreaRouteData } from '@shop/shared-kernel/contract';
import { readPage } from './pages/blog-page-query.ts';

const page = (slug: string) => resource('GET /api/page/:slug', { params: { slug } });
const blog = (tag: string | undefined, search: URLSearchParams) => [
  resource('GET /api/blog/tags'),
  resource('GET /api/blog', { query: { ...(tag ? { tag } : {}), page: readPage(search.get('page')) } }),
];

export const routeData: AreaRouteData = {
  site: { loads: ({ params }) => [page(params.site ?? '')] },
  contact: { loads: () => [page('kontakt'), resource('GET /api/site')] },
  blog: { loads: ({ params, search }) => blog(params.tag, search) },
  'blog-tag': { loads: ({ params, search }) => blog(params.tag, search) },
  'blog-post': { loads: ({ params }) => [resource('GET /api/blog/post/:slug', { params: { slug: params.post ?? '' } })] },
  'shipping-payment': { loads: () => [resource('GET /api/checkout/methods')] },
};
