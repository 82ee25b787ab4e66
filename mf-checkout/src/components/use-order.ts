import { api, useResource, type OrderDetail } from '@shop/shared-kernel';

/** The order of an order token (404 → the shell's not-found page). */
export function useOrder(token: string) {
  return useResource<OrderDetail>(`order:${token}`, () => api.order(token).then((answer) => answer.data));
}
