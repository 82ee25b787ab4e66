import { basketTotal, formatPrice, lineTotal, priceAfterCoupon, useBasketStore, useCouponStore, DEFAULT_VAT } from '@shop/shared-kernel';
import { CouponForm } from './coupon-form.tsx';

/** VAT contained in a price that includes it, per rate, in thousandths. */
function vatByRate(lines: ReturnType<typeof useBasketStore.getState>['lines']): [number, number][] {
  const byRate = new Map<number, number>();
  for (const line of lines) {
    const rate = line.variantData.v_vat ?? DEFAULT_VAT;
    const gross = lineTotal(line);
    byRate.set(rate, (byRate.get(rate) ?? 0) + Math.round((gross * rate) / (100 + rate)));
  }
  return [...byRate.entries()].sort(([a], [b]) => b - a);
}

export function BasketSummary() {
  const lines = useBasketStore((state) => state.lines);
  const discount = useCouponStore((state) => state.discount);
  const subtotal = basketTotal(lines);
  const total = priceAfterCoupon(subtotal, discount);
  return (
    <aside className="chk-summary" aria-label="Súhrn košíka">
      <dl>
        <dt>Medzisúčet</dt>
        <dd data-testid="subtotal">{formatPrice(subtotal)}</dd>
        {discount > 0 && (
          <>
            <dt>Zľava z kupónu</dt>
            <dd>−{formatPrice(Math.min(discount, subtotal))}</dd>
          </>
        )}
        {vatByRate(lines).map(([rate, vat]) => (
          <FragmentRow key={rate} label={`z toho DPH ${rate} %`} value={formatPrice(vat)} />
        ))}
        <dt className="chk-summary__total">Spolu s DPH</dt>
        <dd className="chk-summary__total" data-testid="basket-total">{formatPrice(total)}</dd>
      </dl>
      <CouponForm />
    </aside>
  );
}

function FragmentRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}
