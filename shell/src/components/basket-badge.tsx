import { CartIcon } from './icons.tsx';
import { Link, useBasketStore } from '@shop/shared-kernel';
import { basketCount, basketTotal, formatPrice } from '@shop/shared-kernel/rules';
import { shopPaths } from '@shop/shared-kernel/contract';

/** Basket count and total, read from the same store the checkout area uses. */
export function BasketBadge() {
  const lines = useBasketStore((state) => state.lines);
  const count = basketCount(lines);
  return (
    <Link to={shopPaths.cart()} className="basket-badge">
      <CartIcon />
      <span className="visually-hidden">Košík: </span>
      <span className="basket-badge__count" data-testid="basket-count">
        {count}
      </span>
      <span className="visually-hidden"> ks, </span>
      <span className="basket-badge__total">{formatPrice(basketTotal(lines))}</span>
    </Link>
  );
}
