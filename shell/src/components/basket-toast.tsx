import { useEffect, useState } from 'react';
import { bus, Link, type ShopEvents } from '@shop/shared-kernel';
import { formatPrice } from '@shop/shared-kernel/rules';
import { shopPaths } from '@shop/shared-kernel/contract';

const VISIBLE_MS = 5000;

/**
 * A short confirmation after something is added to the basket, with the basket's new total,
 * announced to screen readers; no reload, and it goes away on its own.
 */
export function BasketToast() {
  const [added, setAdded] = useState<ShopEvents['basket:added'] | null>(null);
  useEffect(() => {
    let timer: number | undefined;
    const show = (event: ShopEvents['basket:added']) => {
      setAdded(event);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setAdded(null), VISIBLE_MS);
    };
    bus.on('basket:added', show);
    return () => {
      bus.off('basket:added', show);
      window.clearTimeout(timer);
    };
  }, []);
  return (
    <div className="basket-toast" aria-live="polite" aria-atomic="true" data-testid="basket-toast">
      {added && (
        <p className="basket-toast__message">
          Pridané do košíka: {added.item.name} ({added.item.variant}), {added.item.quantity} ks. Košík spolu{' '}
          {formatPrice(added.basketTotal)}. <Link to={shopPaths.cart()}>Zobraziť košík</Link>
        </p>
      )}
    </div>
  );
}
