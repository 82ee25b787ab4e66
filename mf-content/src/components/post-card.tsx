import { Link } from '@shop/shared-kernel';
import { formatDate } from '@shop/shared-kernel/rules';
import { shopPaths, type BlogPostSummary } from '@shop/shared-kernel/contract';

export function PostCard({ post }: { post: BlogPostSummary }) {
  return (
    <article className="cnt-post-card" data-testid="post-card">
      <h2 className="cnt-post-card__title">
        <Link to={shopPaths.blogPost(post.slug)}>{post.title}</Link>
      </h2>
      <p className="cnt-post-card__meta">
        <time dateTime={post.publishedAt}>{formatDate(post.publishedAt)}</time>
        {post.tags.length > 0 && ' · '}
        {post.tags.map((tag, index) => (
          <span key={tag.slug}>
            {index > 0 && ', '}
            <Link to={shopPaths.blogTag(tag.slug)}>{tag.name}</Link>
          </span>
        ))}
      </p>
      <p>{post.perex}</p>
    </article>
  );
}
