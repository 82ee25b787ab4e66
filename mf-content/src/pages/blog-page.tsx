import { useEffect } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams, resource, PaginationNav } from '@shop/shared-kernel';
import { withoutPageQuery } from '@shop/shared-kernel/rules';
import { dataOf, LoadFailed, usePageMeta, useResource } from '@shop/shared-kernel/react';
import { PostCard } from '../components/post-card.tsx';
import { TagList } from '../components/tag-list.tsx';
import { useContentStyles } from '../use-content-styles.ts';
import { readPage } from './blog-page-query.ts';

/** /blog and /blog/{tag}: posts newest first, 15 a page, with the topics and their counts. */
export default function BlogPage() {
  useContentStyles();
  const tag = useParams().tag;
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const page = readPage(params.get('page'));
  const tags = useResource(resource('GET /api/blog/tags'), { select: dataOf });
  const posts = useResource(resource('GET /api/blog', { query: { ...(tag ? { tag } : {}), page } }));
  const tagName = tags.data?.find((candidate) => candidate.slug === tag)?.name;
  const title = tag ? (tagName ? `Blog: ${tagName}` : null) : 'Blog';
  usePageMeta({
    title,
    description: tagName
      ? `Články o téme ${tagName}: rady a návody pre stavbu a rekonštrukciu.`
      : 'Rady, návody a novinky zo sveta stavebných materiálov.',
    canonical: `/blog${tag ? `/${tag}` : ''}${page > 1 ? `?page=${page}` : ''}`,
  });

  // A page number above the page count resets to 1 and drops the page query.
  const outOfRange = posts.status === 'ready' && page > posts.data.meta.pageCount;
  useEffect(() => {
    if (outOfRange) void navigate(pathname + withoutPageQuery(search), { replace: true });
  }, [outOfRange, navigate, pathname, search]);

  return (
    <div className="cnt-blog">
      <h1>{title ?? 'Blog'}</h1>
      {tags.data && <TagList tags={tags.data} />}
      {posts.status === 'error' && <LoadFailed onRetry={posts.reload}>Články sa nepodarilo načítať.</LoadFailed>}
      <div className="cnt-blog__posts" aria-busy={posts.status === 'loading'}>
        {posts.data?.data.map((post) => (
          <PostCard key={post.slug} post={post} />
        ))}
      </div>
      {posts.data && <PaginationNav page={page} total={posts.data.meta.total} />}
    </div>
  );
}
