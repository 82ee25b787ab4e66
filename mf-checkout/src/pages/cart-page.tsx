import { startTransition, useEffect, useState } from 'react';
import { Link, useBasketStore, useCheckoutStore } from '@shop/shared-kernel';
import { basketChanges } from '@shop/shared-kernel/rules';
import { useHydrated, usePageMeta } from '@shop/shared-kernel/react';
import type { BasketLine } from '@shop/shared-kernel/contract';
import { BasketLineItem } from '../components/basket-line.tsx';
import { BasketSummary } from '../components/basket-summary.tsx';
import { useServerLines } from '../components/server-lines.ts';
import { CheckoutSteps } from '../components/checkout-steps.tsx';
import { useCheckoutStyles } from '../use-checkout-styles.ts';

/**
 * The basket. Its lines live in this browser's storage, which the server cannot read; the basket's
 * cookie mirrors their ids and amounts, so the server renders them (server-lines.ts): the shopper
 * reads the basket and can go on to the next step (a plain link) from the page's first paint, and
 * the amounts become editable once the page has hydrated and reads the basket itself. Without the
 * cookie the server renders the frame (steps, heading, the delivery note) around a placeholder
 * that the basket fills after hydration. The frame stays where it is in every state, and the state
 * comes below it, so nothing moves when it arrives.
 */
export default function CartPage() {
  useCheckoutStyles();
  usePageMeta({ title: 'Košík', description: 'Váš nákupný košík.' });
  // Not known in the server's HTML and while the page hydrates; right after, as a transition (React
  // renders the lines in slices, yielding to the browser, not in one long task). Known at once when
  // the shopper comes to the basket from another page.
  const hydrated = useHydrated();
  const [known, setKnown] = useState(hydrated);
  useEffect(() => {
    if (!known) startTransition(() => setKnown(true));
  }, [known]);
  const lines = useBasketStore((state) => state.lines);
  const serverLines = useServerLines(!known);
  // Compare against fresh variant data each time the basket is shown.
  useEffect(() => {
    void useBasketStore
      .getState()
      .refreshLines()
      .catch(() => undefined);
  }, []);

  const empty = known && lines.length === 0;
  return (
    <section className="chk-cart">
      <CheckoutSteps current={0} />
      {empty ? <h1>Košík je prázdny</h1> : <h1>Košík</h1>}
      <p className="chk-cart__note">
        Doručenie (kuriér, výdajné miesto, paleta) sa pripočíta podľa výberu v ďalšom kroku; osobný odber na predajni v Žiline je zadarmo.
      </p>
      {known ? (
        empty ? (
          <EmptyBasket />
        ) : (
          <BasketLines lines={lines} live />
        )
      ) : serverLines && serverLines.length > 0 ? (
        <BasketLines lines={serverLines} live={false} />
      ) : (
        <BasketPlaceholder />
      )}
    </section>
  );
}

/** Where the basket's state comes: as tall as one line and the summary's first rows, so the page does not grow in steps. */
function BasketPlaceholder() {
  return (
    <div className="chk-cart__placeholder" role="status" aria-busy="true" aria-label="Načítava sa…">
      <div className="chk-cart__placeholder-line" />
      <div className="chk-cart__placeholder-summary" />
    </div>
  );
}

function EmptyBasket() {
  return (
    <div className="chk-empty">
      <p>Vyberte si z ponuky stavebného materiálu a pridajte tovar do košíka.</p>
      <Link to="/" className="button button--primary">
        Pokračovať v nákupe
      </Link>
    </div>
  );
}

/**
 * The lines, the summary and the way on. `live`: the browser's basket (editable); otherwise the
 * server's lines, read-only until the page has hydrated (what the server knows of seen prices is
 * nothing, so it flags no line).
 */
function BasketLines({ lines, live }: { lines: readonly BasketLine[]; live: boolean }) {
  const clear = useBasketStore((state) => state.clear);
  const seen = useCheckoutStore((state) => state.seen);
  const changes = new Map((live ? basketChanges(lines, seen) : []).map((c) => [c.v_id, c]));
  const blocked = [...changes.values()].some((c) => c.unavailable || c.priceChanged);
  return (
    <div className="chk-layout">
      <div>
        <ul className="chk-lines" aria-label="Položky v košíku">
          {lines.map((line) => (
            <BasketLineItem key={line.v_id} line={line} change={changes.get(line.v_id)} live={live} />
          ))}
        </ul>
        <p>
          <Link to="/">Pokračovať v nákupe</Link> ·{' '}
          <button type="button" className="chk-link-button" onClick={clear} disabled={!live}>
            Vyprázdniť košík
          </button>
        </p>
      </div>
      <BasketSummary lines={lines} live={live} canContinue={!blocked} />
    </div>
  );
}
