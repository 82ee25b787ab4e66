import { Link, NavLink } from '@shop/shared-kernel';
import { OpeningHours } from './opening-hours.tsx';
import { BasketBadge } from './basket-badge.tsx';
import { AccountLink } from './account-link.tsx';
import { SearchBox } from './search-box.tsx';
import { useMenu } from '../app/site-data.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

export function Logo() {
  return (
    <Link to="/" className="logo">
      <span className="logo__mark" aria-hidden="true">
        SD
      </span>
      <span className="logo__text">Stavebniny Domov</span>
      <span className="visually-hidden"> – úvodná stránka</span>
    </Link>
  );
}

/** Full header of the default and account layouts. */
export function Header() {
  const menu = useMenu();
  return (
    <header className="site-header" data-boundary="shell">
      <div className="site-header__top">
        <OpeningHours />
      </div>
      <div className="site-header__main">
        <Logo />
        <SearchBox />
        <nav className="site-header__actions" aria-label="Účet a košík">
          <AccountLink />
          <BasketBadge />
        </nav>
      </div>
      <nav className="main-menu" aria-label="Kategórie">
        <ul>
          {menu?.categories.map((category) => (
            <li key={category.cat_id}>
              <NavLink to={shopPaths.category(category.cat_url)}>{category.cat_name}</NavLink>
            </li>
          ))}
          {menu?.links.map((link) => (
            <li key={link.url}>
              <NavLink to={link.url}>{link.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
