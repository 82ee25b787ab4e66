import { useEffect } from 'react';
import { Link } from '@shop/shared-kernel';
import { usePageMeta } from '@shop/shared-kernel/react';
import { SearchBox } from '../components/search-box.tsx';
import { useMarkInteractive } from '../app/mark-interactive.ts';
import { loadRedirects, useRedirectsChecked } from '../app/redirects.ts';

export const NOT_FOUND_TITLE = 'Ospravedlňujeme sa, táto stránka neexistuje';

/**
 * The 404 page (spec: on a not-found error the stored redirects are searched by old URL). The shell
 * checks every route change against the list it keeps (app/redirects.ts) and follows a match; this
 * page asks for the list at once if it has not arrived yet, and is busy until it has been checked.
 */
export function NotFoundPage() {
  const checked = useRedirectsChecked();
  usePageMeta({ title: NOT_FOUND_TITLE, description: 'Požadovaná stránka neexistuje.' });
  useMarkInteractive();

  useEffect(() => {
    if (!checked) void loadRedirects();
  }, [checked]);

  return (
    <section className="not-found" aria-busy={!checked}>
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>{NOT_FOUND_TITLE}</h1>
      <p>Chyba 404: stránka bola pravdepodobne odstránená, premenovaná alebo je dočasne nedostupná.</p>
      <p>
        <Link to="/" className="button button--primary">
          Prejsť na úvodnú stránku
        </Link>
      </p>
      <p>Hľadáte konkrétny tovar? Skúste vyhľadávanie:</p>
      <SearchBox id="not-found-search" />
    </section>
  );
}
