import { Link } from '@shop/shared-kernel';
import { Logo } from '../components/header.tsx';
import { useMarkInteractive } from '../app/mark-interactive.ts';

/** Last resort for failures outside any area: a plain page with a way back. */
export function ErrorLayout() {
  useMarkInteractive();
  return (
    <div className="layout layout--error">
      <header className="site-header site-header--reduced">
        <div className="site-header__main">
          <Logo />
        </div>
      </header>
      <main id="main" className="layout__main error-page">
        <h1>Niečo sa pokazilo</h1>
        <p>Stránku sa nepodarilo zobraziť. Skúste ju načítať znova alebo pokračujte na úvodnú stránku.</p>
        <p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Načítať znova
          </button>{' '}
          <Link to="/" className="button button--primary">
            Na úvodnú stránku
          </Link>
        </p>
      </main>
    </div>
  );
}
