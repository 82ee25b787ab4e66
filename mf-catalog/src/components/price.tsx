import { formatPrice, salePercent, unitPriceBeforeSale, unitPriceWithVat } from '@shop/shared-kernel/rules';
import type { VariantData } from '@shop/shared-kernel/contract';

/**
 * Price with VAT by requirements R9.4. A discounted price shows the price before the sale and,
 * as Slovak law asks, the lowest price of the 30 days before the discount.
 */
export function Price({
  variant,
  from = false,
  lowestPrice30 = null,
}: {
  variant: VariantData;
  from?: boolean;
  lowestPrice30?: number | null;
}) {
  const now = unitPriceWithVat(variant);
  const onSale = salePercent(variant) > 0;
  return (
    <div className="cat-price">
      <span className={onSale ? 'cat-price__now cat-price__now--sale' : 'cat-price__now'} data-testid="price">
        {from ? 'od ' : ''}
        {formatPrice(now)}
      </span>
      {onSale && (
        <span className="cat-price__before">
          <span className="visually-hidden">Pôvodná cena </span>
          {formatPrice(unitPriceBeforeSale(variant))}
        </span>
      )}
      {onSale && lowestPrice30 !== null && (
        <span className="cat-price__lowest" data-testid="lowest-price">
          Najnižšia cena za 30 dní pred zľavou: {formatPrice(lowestPrice30)}
        </span>
      )}
    </div>
  );
}

/** The discount badge: a variant's discount, or a product's deepest one ("až −25 %" when its variants differ). */
export function SaleBadge({ percent, upTo = false }: { percent: number; upTo?: boolean }) {
  return percent > 0 ? (
    <span className="cat-badge" data-testid="sale-badge">
      <span className="visually-hidden">Zľava </span>
      {upTo ? 'až ' : ''}−{percent} %
    </span>
  ) : null;
}
