import { Link, useBasketStore, useCouponStore } from '@shop/shared-kernel';
import { basketTotal, formatPrice, lineTotal, priceAfterCoupon, vatBreakdown } from '@shop/shared-kernel/rules';
import { CouponForm } from './coupon-form.tsx';
import { useQuote } from './use-quote.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

/** Subtotal, coupon, VAT per rate, a shipping estimate and the total, by the kernel's rules. */
export function BasketSummary({ canContinue }: { canContinue: boolean }) {
  const lines = useBasketStore((state) => state.lines);
  const discount = useCouponStore((state) => state.discount);
  const subtotal = basketTotal(lines);
  const total = priceAfterCoupon(subtotal, discount);
  const { quote } = useQuote(lines, {});
  const deliveries = quote?.shipping.filter((m) => m.available && m.code !== 'pickup') ?? [];
  const cheapest = deliveries.reduce<(typeof deliveries)[number] | null>(
    (best, m) => (best === null || m.price < best.price ? m : best),
    null,
  );
  const vat = vatBreakdown(
    lines.map((line) => ({ gross: lineTotal(line), rate: line.variantData.v_vat })),
    discount,
  );
  return (
    <aside className="chk-summary" aria-label="Súhrn košíka">
      <dl>
        <dt>Medzisúčet</dt>
        <dd data-testid="subtotal">{formatPrice(subtotal)}</dd>
        {discount > 0 && (
          <>
            <dt>Zľava z kupónu</dt>
            <dd data-testid="discount">−{formatPrice(Math.min(discount, subtotal))}</dd>
          </>
        )}
        {vat.map((line) => (
          <Row key={line.rate} label={`z toho DPH ${line.rate} %`} value={formatPrice(line.vat)} />
        ))}
        <dt>Doručenie (odhad)</dt>
        <dd data-testid="shipping-estimate">
          {/* The estimate comes after the amounts: a text of its own in place of the dash, not the dash's text moved (a shift). */}
          {cheapest ? <span>{cheapest.price === 0 ? 'zadarmo' : `od ${formatPrice(cheapest.price)}`}</span> : '—'}
        </dd>
        <dt className="chk-summary__total">Spolu s DPH</dt>
        <dd className="chk-summary__total" data-testid="basket-total">
          {formatPrice(total)}
        </dd>
      </dl>
      <CouponForm />
      {canContinue ? (
        <Link to={shopPaths.checkoutContact()} className="button button--primary chk-continue">
          Pokračovať k údajom
        </Link>
      ) : (
        <p className="chk-message chk-message--error">Pred pokračovaním vyriešte označené položky.</p>
      )}
    </aside>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}
