import { Outlet } from 'react-router';
import { NavLink } from '@shop/shared-kernel';
import { Header } from '../components/header.tsx';
import { Footer } from '../components/footer.tsx';
import { shopPaths } from '@shop/shared-kernel/contract';

const accountLinks = [
  { to: shopPaths.profile(), label: 'Profil' },
  { to: shopPaths.orders(), label: 'Objednávky' },
  { to: shopPaths.addresses(), label: 'Adresy' },
  { to: shopPaths.complaints(), label: 'Reklamácie' },
];

export function AccountLayout() {
  return (
    <div className="layout layout--account">
      <a className="skip-link" href="#main">
        Preskočiť na obsah
      </a>
      <Header />
      <div className="account-shell">
        <nav className="account-nav" aria-label="Môj účet">
          <ul>
            {accountLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to}>{link.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="layout__main">
          <Outlet />
        </main>
      </div>
      <Footer />
    </div>
  );
}
