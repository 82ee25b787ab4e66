import { Layout } from './layout.tsx';
import { DocumentsPage } from './pages/documents-page.tsx';
import { RedirectsPage } from './pages/redirects-page.tsx';
import { ReleasesPage } from './pages/releases-page.tsx';
import { Link, pageOf, Router, useLocation } from './router.tsx';
import { CodePrompt } from './session/code-prompt.tsx';
import { SecondFactorSetup } from './session/second-factor-setup.tsx';
import { SessionProvider, useSession } from './session/session.tsx';
import { SignIn } from './session/sign-in.tsx';

/** The page the address names, for an operator who passed the second factor. */
function CurrentPage() {
  const { location } = useLocation();
  const page = pageOf(location.pathname);
  switch (page.kind) {
    case 'releases':
      return <ReleasesPage />;
    case 'documents':
      return <DocumentsPage tool={page.tool} />;
    case 'redirects':
      return <RedirectsPage />;
    default:
      return (
        <section className="ops">
          <h1>Stránka neexistuje</h1>
          <p>
            <Link href="/ops">Späť na vydania</Link>
          </p>
        </section>
      );
  }
}

/** Signed in (with a second factor), setting one up, or the sign-in form. */
function Console() {
  const { operator } = useSession();
  if (operator === undefined)
    return (
      <section className="ops">
        <p role="status">Načítava sa…</p>
      </section>
    );
  if (operator === null) return <SignIn />;
  if (!operator.secondFactor) return <SecondFactorSetup />;
  return (
    <>
      <CodePrompt />
      <CurrentPage />
    </>
  );
}

export function App() {
  return (
    <Router>
      <SessionProvider>
        <Layout>
          <Console />
        </Layout>
      </SessionProvider>
    </Router>
  );
}
