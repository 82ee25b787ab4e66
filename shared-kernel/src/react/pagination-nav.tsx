import { useEffect } from 'react';
import { Link, useLocation } from '../singleton/routing.tsx';
import { pageHref, paginate } from '../rules/pagination.ts';

function useHeadLink(rel: 'prev' | 'next', href: string | null) {
  useEffect(() => {
    if (!href) return;
    const link = document.createElement('link');
    link.rel = rel;
    link.href = new URL(href, window.location.origin).href;
    document.head.append(link);
    return () => link.remove();
  }, [rel, href]);
}

/**
 * Page links of a listing (requirements R2.9): the current page ± 2, the
 * neighbouring pages as rel prev/next, also in the document head.
 */
export function PaginationNav({ page, total, pageSize }: { page: number; total: number; pageSize?: number }) {
  const { pathname, search } = useLocation();
  const state = paginate(page, total, pageSize);
  const href = (target: number) => pageHref(pathname, search, target);
  useHeadLink('prev', state.prev ? href(state.prev) : null);
  useHeadLink('next', state.next ? href(state.next) : null);
  if (state.pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label="Stránkovanie">
      <ul>
        {state.prev && (
          <li>
            <Link to={href(state.prev)} rel="prev" aria-label="Predchádzajúca strana">
              ‹
            </Link>
          </li>
        )}
        {state.pages.map((target) => (
          <li key={target}>
            {target === state.page ? (
              <span aria-current="page">{target}</span>
            ) : (
              <Link
                to={href(target)}
                rel={target === state.prev ? 'prev' : target === state.next ? 'next' : undefined}
                aria-label={`Strana ${target}`}
              >
                {target}
              </Link>
            )}
          </li>
        ))}
        {state.next && (
          <li>
            <Link to={href(state.next)} rel="next" aria-label="Nasledujúca strana">
              ›
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}
