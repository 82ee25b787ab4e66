import { Link } from '@shop/shared-kernel';
import type { Breadcrumb } from '@shop/shared-kernel/contract';

export function Breadcrumbs({ items }: { items: Breadcrumb[] }) {
  return (
    <nav className="cat-breadcrumbs" aria-label="Omrvinky">
      <ol>
        <li>
          <Link to="/">Domov</Link>
        </li>
        {items.map((item, index) => (
          <li key={item.url}>
            {index === items.length - 1 ? <span aria-current="page">{item.name}</span> : <Link to={item.url}>{item.name}</Link>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
