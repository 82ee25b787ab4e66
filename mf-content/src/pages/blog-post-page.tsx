import { Link, useParams, resource } from '@shop/shared-kernel';
import { formatDate } from '@shop/shared-kernel/rules';
import {
  dataOf,
  LoadFailed,
  SHOP_NAME,
  trustedHtml,
  useJsonLd,
  usePageMeta,
  usePublicOrigin,
  useResource,
} from '@shop/shared-kernel/react';
import { useContentStyles } from '../use-content-styles.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

/** One blog post at its stable URL /blog/clanok/{slug}. */
export default function BlogPostPage() {
  useContentStyles();
  const slug = useParams().post ?? '';
  const post = useResource(resource('GET /api/blog/post/:slug', { params: { slug } }), { select: dataOf });
  const data = post.data;
  usePageMeta({ title: data?.title ?? null, description: data?.perex, canonical: shopPaths.blogPost(slug) });
  const origin = usePublicOrigin();
  useJsonLd(
    'blog-post',
    data
      ? {
          '@type': 'BlogPosting',
          headline: data.title,
          description: data.perex,
          datePublished: data.publishedAt,
          keywords: data.tags.map((tag) => tag.name).join(', '),
          mainEntityOfPage: `${origin}${shopPaths.blogPost(data.slug)}`,
          publisher: { '@type': 'Organization', name: SHOP_NAME },
        }
      : null,
  );

  if (post.status === 'error') {
    return <LoadFailed onRetry={post.reload}>Článok sa nepodarilo načítať.</LoadFailed>;
  }
  if (!data) return <div className="page-skeleton" aria-busy="true" />;
  return (
    <article className="cnt-page cnt-post">
      <p className="cnt-post__back">
        <Link to={shopPaths.blog()}>← Blog</Link>
      </p>
      <h1>{data.title}</h1>
      <p className="cnt-post-card__meta">
        <time dateTime={data.publishedAt}>{formatDate(data.publishedAt)}</time>
        {data.tags.map((tag) => (
          <span key={tag.slug}>
            {' · '}
            <Link to={shopPaths.blogTag(tag.slug)}>{tag.name}</Link>
          </span>
        ))}
      </p>
      <p className="cnt-post__perex">{data.perex}</p>
      {/* Sanitised by the API; written through the shop's Trusted Types policy. */}
      <div className="cnt-post__body" dangerouslySetInnerHTML={{ __html: trustedHtml(data.contentHtml) }} />
    </article>
  );
}
