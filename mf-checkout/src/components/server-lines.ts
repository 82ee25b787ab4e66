/**
 * The basket's lines as the server renders them: the basket's cookie gives each line's id and
 * amount (the server parses and bounds it), one call gives their variants. The route declares
 * that call (route-data.ts), and the page renders from it until it has hydrated and may read the
 * basket from the browser's storage: the same lines, from the first byte of the page.
 */
import { resource } from '@shop/shared-kernel';
import { dataOf, useResource, useServerBasket } from '@shop/shared-kernel/react';
import type { BasketEntry, BasketLine } from '@shop/shared-kernel/contract';

/** The call for these lines' variants (null for none). */
export function basketVariants(basket: readonly BasketEntry[]) {
  return basket.length > 0 ? resource('GET /api/product/variants', { query: { ids: basket.map((line) => line.v_id).join(',') } }) : null;
}

/**
 * The server's lines while `wanted` (until the page may read the browser's storage), in the
 * cookie's order; null when the page was not rendered with a basket or its variants are not there.
 * A line whose variant the shop no longer has is left out: the browser's basket shows it after.
 */
export function useServerLines(wanted: boolean): BasketLine[] | null {
  const basket = useServerBasket();
  const variants = useResource(wanted && basket ? basketVariants(basket) : null, { select: dataOf });
  if (!wanted || !basket || variants.status !== 'ready') return null;
  const byId = new Map(variants.data.map((variant) => [variant.v_id, variant]));
  return basket.flatMap(({ v_id, amount }) => {
    const variantData = byId.get(v_id);
    return variantData ? [{ v_id, amount, variantData, isComponent: false, isRequired: false }] : [];
  });
}
