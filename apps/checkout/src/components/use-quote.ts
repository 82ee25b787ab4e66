import { useEffect, useState } from 'react';
import { api } from '@shop/shared-kernel';
import type { BasketLine, CheckoutQuote } from '@shop/shared-kernel/contract';

export type QuoteState = {
  quote: CheckoutQuote | null;
  error: string | null;
  loading: boolean;
  /** The quote is the price of the basket and choices of this render (not an earlier one still shown). */
  current: boolean;
};

type Answered = Omit<QuoteState, 'current'> & { key: string | null };

/** The API's price of the basket with a shipping and payment choice, re-asked when any of them changes. */
export function useQuote(
  lines: readonly BasketLine[],
  choice: { shippingCode?: string | null; paymentCode?: string | null; couponCode?: string | null },
): QuoteState {
  const [state, setState] = useState<Answered>({ quote: null, error: null, loading: true, key: null });
  const key = JSON.stringify([lines.map((l) => [l.v_id, l.amount]), choice.shippingCode, choice.paymentCode, choice.couponCode]);
  useEffect(() => {
    const [pairs, shippingCode, paymentCode, couponCode] = JSON.parse(key) as [[number, number][], string | null, string | null, string | null];
    if (pairs.length === 0) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    api
      .checkoutQuote(
        { lines: pairs.map(([v_id, amount]) => ({ v_id, amount })), shippingCode: shippingCode ?? null, paymentCode: paymentCode ?? null, couponCode: couponCode ?? null },
        { signal: controller.signal },
      )
      .then(
        (answer) => setState({ quote: answer.data, error: null, loading: false, key }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ quote: null, error: error instanceof Error ? error.message : 'Výpočet ceny zlyhal.', loading: false, key });
        },
      );
    return () => controller.abort();
  }, [key]);
  const { key: answeredFor, ...answered } = state;
  return { ...answered, current: answeredFor === key && !state.loading };
}
