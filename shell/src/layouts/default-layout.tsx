import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { Header } from '../components/header.tsx';
import { Footer } from '../components/footer.tsx';
import { SiteStructuredData } from '../components/site-structured-data.tsx';

export function DefaultLayout({ children }: { children?: ReactNode }) {
  return (
    <div className="layout layout--default">
      <a className="skip-link" href="#main">
        Preskočiť na obsah
      </a>
      <Header />
      <main id="main" className="layout__main">
        {children ?? <Outlet />}
      </main>
      <Footer />
      <SiteStructuredData />
    </div>
  );
}
