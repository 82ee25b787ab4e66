import { formatPrice, salePercent, unitPriceBeforeSale, unitPriceWithVat, type VariantData } from '@shop/shared-kernel';

/** Price with VAT by the spec's formula; a discounted price shows the price before the sale. */
export function Price({ variant, from = false }: { variant: VariantData; from?: boolean }) {
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
    </div>
  );
}

export function SaleBadge({ variant }: { variant: VariantData }) {
  const percent = salePercent(variant);
  return percent > 0 ? <span className="cat-badge">−{percent} %</span> : null;
}
