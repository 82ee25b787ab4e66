import { useEffect } from 'react';
import { Link, useBasketStore, useCheckoutStore } from '@shop/shared-kernel';
import { basketChanges } from '@shop/shared-kernel/rules';
import { usePageMeta } from '@shop/shared-kernel/react';
import { BasketLineItem } from '../components/basket-line.tsx';
import { BasketSummary } from '../components/basket-summary.tsx';
import { CheckoutSteps } from '../components/checkout-steps.tsx';
import { useCheckoutStyles } from '../use-checkout-styles.ts';

export default function CartPage() {
  useCheckoutStyles();
  usePageMeta({ title: 'Košík', description: 'Váš nákupný košík.' });
  const lines = useBasketStore((state) => state.lines);
  const clear = useBasketStore((state) => state.clear);
  const seen = useCheckoutStore((state) => state.seen);
  // Compare against fresh variant data each time the basket is shown.
  useEffect(() => {
    void useBasketStore
      .getState()
      .refreshLines()
      .catch(() => undefined);
  }, []);

  if (lines.length === 0) {
    return (
      <section className="chk-empty">
        <h1>Košík je prázdny</h1>
        <p>Vyberte si z ponuky stavebného materiálu a pridajte tovar do košíka.</p>
        <Link to="/" className="button button--primary">
          Pokračovať v nákupe
        </Link>
      </section>
    );
  }
  const changes = new Map(basketChanges(lines, seen).map((c) => [c.v_id, c]));
  const blocked = [...changes.values()].some((c) => c.unavailable || c.priceChanged);
  return (
    <section>
      <CheckoutSteps current={0} />
      <h1>Košík</h1>
      <div className="chk-layout">
        <div>
          <ul className="chk-lines" aria-label="Položky v košíku">
            {lines.map((line) => (
              <BasketLineItem key={line.v_id} line={line} change={changes.get(line.v_id)} />
            ))}
          </ul>
          <p>
            <Link to="/">Pokračovať v nákupe</Link> ·{' '}
            <button type="button" className="chk-link-button" onClick={clear}>
              Vyprázdniť košík
            </button>
          </p>
        </div>
        <BasketSummary canContinue={!blocked} />
      </div>
    </section>
  );
}
