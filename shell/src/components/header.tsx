import { Link, NavLink } from '@shop/shared-kernel';
import { OpeningHours } from './opening-hours.tsx';
import { BasketBadge } from './basket-badge.tsx';
import { AccountLink } from './account-link.tsx';
import { SearchBox } from './search-box.tsx';
import { useLocation } from 'react-router';
import { useMenu } from '../app/site-data.ts';
import { shopPaths, type MenuData } from '@shop/shared-kernel/contract';
import { cachedPart, menuKey } from './layout-html.ts';

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

/** The category menu's links (server-entry.tsx renders them once per menu and active link: layout-html.ts). */
export function MenuLinks({ menu }: { menu: MenuData | null }) {
  return (
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
  );
}

/** Full header of the default and account layouts. */
export function Header() {
  const menu = useMenu();
  const { pathname } = useLocation();
  const cached = menu && cachedPart(() => menuKey(menu, pathname));
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
      {cached ? (
        <nav className="main-menu" aria-label="Kategórie" {...cached} />
      ) : (
        <nav className="main-menu" aria-label="Kategórie">
          <MenuLinks menu={menu} />
        </nav>
      )}
    </header>
  );
}
