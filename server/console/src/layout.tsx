import type { ReactNode } from 'react';
import { Link, pageOf, useLocation } from './router.tsx';
import { useSession } from './session/session.tsx';

/** The signed-in operator, the console's pages and the way out, in the console's header. */
function OperatorBar() {
  const { operator, signOut } = useSession();
  const { location } = useLocation();
  if (!operator) return null;
  const page = pageOf(location.pathname).kind;
  return (
    <>
      {operator.secondFactor && (
        <nav className="ops-header__nav" aria-label="Konzola">
          <Link href="/ops" current={page === 'releases'}>
            Vydania
          </Link>
          <Link href="/ops/doklady/pdf" current={page === 'documents'}>
            Objednávky
          </Link>
          <Link href="/ops/presmerovania" current={page === 'redirects'}>
            Presmerovania
          </Link>
        </nav>
      )}
      <p className="ops-header__operator" data-testid="ops-operator">
        Prihlásený operátor: <strong>{operator.name}</strong>{' '}
        <button type="button" className="button" onClick={() => void signOut()}>
          Odhlásiť sa
        </button>
      </p>
    </>
  );
}

/** The console's layout: a plain header and the page; nothing of the shop. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        Preskočiť na obsah
      </a>
      <header className="ops-header">
        <div className="ops-header__main">
          <p className="ops-header__title">Prevádzka obchodu</p>
          <OperatorBar />
        </div>
      </header>
      <main id="main" className="layout__main">
        {children}
      </main>
    </div>
  );
}
