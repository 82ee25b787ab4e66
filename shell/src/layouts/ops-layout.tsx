import { Outlet } from 'react-router';
import { OpsSessionProvider, useOpsSession } from './ops-session.tsx';

/** The signed-in operator and the way out, in the operators' header. */
function OperatorBar() {
  const { operator, signOut } = useOpsSession();
  if (!operator) return null;
  return (
    <p className="ops-header__operator" data-testid="ops-operator">
      Prihlásený operátor: <strong>{operator}</strong>{' '}
      <button type="button" className="button" onClick={() => void signOut()}>
        Odhlásiť sa
      </button>
    </p>
  );
}

/**
 * The operators' layout (/ops): a plain header with the signed-in operator, and none of the shop's
 * search, menu, basket or footer. The operators' tool sets no tracking, so the shell shows no
 * cookie notice here either (shell-root.tsx; the server leaves out the first frame's notice).
 */
export function OpsLayout() {
  return (
    <OpsSessionProvider>
      <div className="layout layout--ops">
        <a className="skip-link" href="#main">
          Preskočiť na obsah
        </a>
        <header className="site-header ops-header" data-boundary="shell">
          <div className="ops-header__main">
            <p className="ops-header__title">Prevádzka obchodu</p>
            <OperatorBar />
          </div>
        </header>
        <main id="main" className="layout__main">
          <Outlet />
        </main>
      </div>
    </OpsSessionProvider>
  );
}
