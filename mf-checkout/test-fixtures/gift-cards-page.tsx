import { Link, useBasketStore } from '@shop/shared-kernel';
import { usePageMeta } from '@shop/shared-kernel/react';
import { shopPaths } from '@shop/shared-kernel/contract';

/**
 * A page the checkout team ships on its own (the end-to-end test of "areas own
 * their routes" builds the area with it and deploys only the area).
 */
export default function GiftCardsPage() {
  usePageMeta({ title: 'Darčekové poukážky', description: 'Darčekové poukážky na stavebný materiál.' });
  const lines = useBasketStore((state) => state.lines.length);
  return (
    <section>
      <h1>Darčekové poukážky</h1>
      <p data-testid="gift-basket-lines">Položky v košíku: {lines}</p>
      <Link to={shopPaths.cart()}>Späť do košíka</Link>
    </section>
  );
}
