import { Link, resource, useAuthStore } from '@shop/shared-kernel';
import { formatPrice, isAuthenticated } from '@shop/shared-kernel/rules';
import { dataOf, useResource } from '@shop/shared-kernel/react';
import { PageContent } from '../components/page-content.tsx';
import { useContentStyles } from '../use-content-styles.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

function Points() {
  const points = useResource(resource('GET /api/loyalty'), { select: dataOf });
  if (points.status === 'error') return <p role="alert">Body sa nepodarilo načítať.</p>;
  if (!points.data) return <p aria-busy="true">Načítavam vaše body…</p>;
  return (
    <p data-testid="loyalty-points">
      Máte <strong>{points.data.points} bodov</strong> z {points.data.paidOrders} zaplatených objednávok v hodnote{' '}
      {formatPrice(points.data.paidTotal)} ({points.data.pointsPerEuro} bod za každé celé euro).
    </p>
  );
}

/** /s/vernostny-program: the rules as content, and a signed-in customer's points. */
export default function LoyaltyPage() {
  useContentStyles();
  const signedIn = useAuthStore((state) => isAuthenticated(state.auth));
  return (
    <PageContent slug="vernostny-program">
      <section className="cnt-loyalty" aria-labelledby="loyalty-points">
        <h2 id="loyalty-points">Vaše body</h2>
        {signedIn ? (
          <Points />
        ) : (
          <p>
            <Link to={shopPaths.signIn(shopPaths.loyalty())}>Prihláste sa</Link> a uvidíte, koľko bodov ste už nazbierali.
          </p>
        )}
      </section>
    </PageContent>
  );
}
