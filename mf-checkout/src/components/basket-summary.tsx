import { Fragment } from 'react';
import { Link, useCouponStore } from '@shop/shared-kernel';
import { formatPrice, lineTotal, orderTotals, totalsRows, type TotalsRowKind } from '@shop/shared-kernel/rules';
import { CouponForm } from './coupon-form.tsx';
import { useQuote } from './use-quote.ts';
import { shopPaths, type BasketLine } from '@shop/shared-kernel/contract';

/** Before the order, the basket's own words for the goods and the coupon. */
const BASKET_LABELS: Partial<Record<TotalsRowKind, string>> = { items: 'Medzisúčet', discount: 'Zľava z kupónu' };
const TEST_IDS: Partial<Record<TotalsRowKind, string>> = { items: 'subtotal', discount: 'discount', total: 'basket-total' };

/**
 * Subtotal, coupon, VAT per rate, a shipping estimate and the total, in the kernel's layout of an
 * order's totals. Not `live` (the server's lines): no estimate yet, its call is the browser's.
 */
export function BasketSummary({ lines, live, canContinue }: { lines: readonly BasketLine[]; live: boolean; canContinue: boolean }) {
  const coupon = useCouponStore((state) => state.discount);
  const { quote } = useQuote(live ? lines : [], {});
  const deliveries = quote?.shipping.filter((m) => m.available && m.code !== 'pickup') ?? [];
  const cheapest = deliveries.reduce<(typeof deliveries)[number] | null>(
    (best, m) => (best === null || m.price < best.price ? m : best),
    null,
  );
  const totals = orderTotals({
    lines: lines.map((line) => ({ lineTotal: lineTotal(line), vat: line.variantData.v_vat })),
    discount: coupon,
  });
  const rows = totalsRows({ ...totals, couponCode: null, shipping: null, payment: null });
  const row = (r: (typeof rows)[number]) => (
    <Fragment key={`${r.kind}-${r.label}`}>
      <dt className={r.kind === 'total' ? 'chk-summary__total' : undefined}>{BASKET_LABELS[r.kind] ?? r.label}</dt>
      <dd className={r.kind === 'total' ? 'chk-summary__total' : undefined} data-testid={TEST_IDS[r.kind]}>
        {r.shown}
      </dd>
    </Fragment>
  );
  return (
    <aside className="chk-summary" aria-label="Súhrn košíka">
      <dl>
        {rows.filter((r) => r.kind !== 'total').map(row)}
        <dt>Doručenie (odhad)</dt>
        <dd data-testid="shipping-estimate">
          {/* The estimate comes after the amounts: a text of its own in place of the dash, not the dash's text moved (a shift). */}
          {cheapest ? <span>{cheapest.price === 0 ? 'zadarmo' : `od ${formatPrice(cheapest.price)}`}</span> : '—'}
        </dd>
        {rows.filter((r) => r.kind === 'total').map(row)}
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
