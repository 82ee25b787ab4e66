import { useEffect, useState } from 'react';
import { resource, useCheckoutStore } from '@shop/shared-kernel';
import type { OrderDetail } from '@shop/shared-kernel/contract';
import { dataOf, useResource, type ResourceState } from '@shop/shared-kernel/react';

/**
 * The order of an order token (404 → the shell's not-found page). The order this tab has just
 * placed comes from the placing call's answer (the checkout store holds it once); a reload or a
 * link from the e-mail asks the API.
 */
export function useOrder(token: string): ResourceState<OrderDetail> {
  const [held] = useState(() => useCheckoutStore.getState().placedOrder);
  const placed = held?.token === token ? held : null;
  // Shown once: coming back to the page later asks for the order as it is then.
  useEffect(() => {
    if (placed) useCheckoutStore.getState().forgetPlacedOrder();
  }, [placed]);
  const loaded = useResource(placed ? null : resource('GET /api/orders/:token', { params: { token } }), { select: dataOf });
  return placed ? { status: 'ready', data: placed, error: undefined, reload: loaded.reload, stale: false } : loaded;
}
