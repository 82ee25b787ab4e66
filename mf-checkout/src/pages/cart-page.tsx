import { Link } from 'react-router';
import { usePageMeta, useBasketStore } from '@shop/shared-kernel';
import { BasketLineItem } from '../components/basket-line.tsx';
import { BasketSummary } from '../components/basket-summary.tsx';
import { useCheckoutStyles } from '../use-checkout-styles.ts';

export default function CartPage() {
  useCheckoutStyles();
  usePageMeta({ title: 'Košík', description: 'Váš nákupný košík.' });
  const lines = useBasketStore((state) => state.lines);
  const clear = useBasketStore((state) => state.clear);

  if (lines.length === 0) {
    return (
      <section className="chk-empty">
        <h1>Košík je prázdny</h1>
        <p>Vyberte si z ponuky stavebného materiálu a pridajte tovar do košíka.</p>
        <Link to="/" className="button button--primary">Pokračovať v nákupe</Link>
      </section>
    );
  }
  return (
    <section>
      <h1>Košík</h1>
      <div className="chk-layout">
        <div>
          <ul className="chk-lines" aria-label="Položky v košíku">
            {lines.map((line) => (
              <BasketLineItem key={line.v_id} line={line} />
            ))}
          </ul>
          <p>
            <Link to="/">Pokračovať v nákupe</Link> ·{' '}
            <button type="button" className="chk-link-button" onClick={clear}>Vyprázdniť košík</button>
          </p>
        </div>
        <BasketSummary />
      </div>
    </section>
  );
}
