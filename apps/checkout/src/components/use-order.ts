import { api } from '@shop/shared-kernel';
import { useResource } from '@shop/shared-kernel/react';
import type { OrderDetail } from '@shop/shared-kernel/contract';

/** The order of an order token (404 → the shell's not-found page). */
export function useOrder(token: string) {
  return useResource<OrderDetail>(`order:${token}`, () => api.order(token).then((answer) => answer.data));
}
