import { resource, useFlag } from '@shop/shared-kernel';
import { dataOf, useResource } from '@shop/shared-kernel/react';
import { CHECKOUT_FLAGS } from '@shop/shared-kernel/rules';
import type { BasketLine, CheckoutQuote } from '@shop/shared-kernel/contract';

export type QuoteState = {
  quote: CheckoutQuote | null;
  error: string | null;
  loading: boolean;
  /** The quote is the price of the basket and choices of this render (not an earlier one still shown). */
  current: boolean;
};

/**
 * The API's price of the basket with a shipping and payment choice, re-asked when any of them
 * changes (the call's key is its body), and when a checkout switch the server offers the methods by
 * changes (card payment, pickup points); the last price stays shown while the next one loads.
 */
export function useQuote(
  lines: readonly BasketLine[],
  choice: { shippingCode?: string | null; paymentCode?: string | null; couponCode?: string | null },
): QuoteState {
  const body = {
    lines: lines.map(({ v_id, amount }) => ({ v_id, amount })),
    shippingCode: choice.shippingCode ?? null,
    paymentCode: choice.paymentCode ?? null,
    couponCode: choice.couponCode ?? null,
  };
  const switches = [useFlag('checkout', CHECKOUT_FLAGS.cardPayment), useFlag('checkout', CHECKOUT_FLAGS.pickupPoints)];
  const call = lines.length > 0 ? resource('POST /api/checkout/quote', { body }) : null;
  const quote = useResource(call && { ...call, key: `${call.key}#switches=${switches.join()}` }, { keep: true, select: dataOf });
  return {
    quote: quote.data ?? null,
    error: quote.status === 'error' ? (quote.error instanceof Error ? quote.error.message : 'Výpočet ceny zlyhal.') : null,
    loading: quote.status === 'loading',
    current: quote.status === 'ready',
  };
}
