import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { call, Link } from '@shop/shared-kernel';
import { usePageMeta } from '@shop/shared-kernel/react';
import { SearchBox } from '../components/search-box.tsx';
import { useMarkInteractive } from '../app/mark-interactive.ts';

export const NOT_FOUND_TITLE = 'Ospravedlňujeme sa, táto stránka neexistuje';

function isExternal(url: string): boolean {
  return /^https?:\/\//i.test(url) && new URL(url).origin !== window.location.origin;
}

/**
 * The 404 page. Before showing itself it looks the path up in the stored
 * redirect list by old URL and sends the visitor to the new URL on a match.
 */
export function NotFoundPage() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [checked, setChecked] = useState(false);
  usePageMeta({ title: NOT_FOUND_TITLE, description: 'Požadovaná stránka neexistuje.' });
  useMarkInteractive();

  useEffect(() => {
    let live = true;
    setChecked(false);
    call('GET /api/redirect/list')
      .then(({ data }) => {
        const hit = data.find((entry) => entry.old_url === pathname + search || entry.old_url === pathname);
        if (!live || !hit) return;
        if (isExternal(hit.new_url)) window.location.assign(hit.new_url);
        else void navigate(hit.new_url, { replace: true });
      })
      .catch(() => undefined)
      .finally(() => live && setChecked(true));
    return () => {
      live = false;
    };
  }, [pathname, search, navigate]);

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
