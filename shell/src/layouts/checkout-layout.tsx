import { Outlet } from 'react-router';
import { Logo } from '../components/header.tsx';
import { OpeningHours } from '../components/opening-hours.tsx';

/** Reduced header without distractions while the shopper checks out. */
export function CheckoutLayout() {
  return (
    <div className="layout layout--checkout">
      <a className="skip-link" href="#main">
        Preskočiť na obsah
      </a>
      <header className="site-header site-header--reduced" data-boundary="shell">
        <div className="site-header__main">
          <Logo />
          <OpeningHours />
        </div>
      </header>
      <main id="main" className="layout__main">
        <Outlet />
      </main>
    </div>
  );
}
