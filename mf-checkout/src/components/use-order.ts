import { resource } from '@shop/shared-kernel';
import { dataOf, useResource } from '@shop/shared-kernel/react';

/** The order of an order token (404 → the shell's not-found page). */
export function useOrder(token: string) {
  return useResource(resource('GET /api/orders/:token', { params: { token } }), { select: dataOf });
}
