import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.ts';
import type { CheckoutOptions } from '../checkout/checkout-options.ts';

export const OPERATOR_HEADER = 'x-operator-token';

/** True when the request carries the operator's token (X-Operator-Token). */
export function isOperator(request: FastifyRequest, opts: Pick<CheckoutOptions, 'operatorToken'>): boolean {
  const given = request.headers[OPERATOR_HEADER];
  if (typeof given !== 'string' || !given || !opts.operatorToken) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(opts.operatorToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function requireOperator(request: FastifyRequest, opts: Pick<CheckoutOptions, 'operatorToken'>): void {
  if (!isOperator(request, opts)) throw new ApiError(401, 'unauthorized', 'Chýba alebo nesedí token operátora.');
}
