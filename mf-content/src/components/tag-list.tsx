import { NavLink } from '@shop/shared-kernel';
import { shopPaths, type BlogTag } from '@shop/shared-kernel/contract';

/** The blog's topics with the number of posts in each. */
export function TagList({ tags }: { tags: BlogTag[] }) {
  return (
    <nav className="cnt-tags" aria-label="Témy blogu">
      <ul>
        <li>
          <NavLink to={shopPaths.blog()} end>
            Všetky články
          </NavLink>
        </li>
        {tags.map((tag) => (
          <li key={tag.slug}>
            <NavLink to={shopPaths.blogTag(tag.slug)}>
              {tag.name} <span className="cnt-tags__count">({tag.count})</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
