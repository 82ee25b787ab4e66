import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../../infra/http/errors.ts';
import { checkOperatorToken, OPERATOR_HEADER } from '../../../infra/auth/operator-auth.ts';

/** The operator's token as the operator's tools send it (X-Operator-Token) or as a bearer token. */
function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers[OPERATOR_HEADER];
  if (typeof header === 'string') return header;
  return /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
}

/** 401 unless the request carries the operator's token (429 after too many wrong ones). */
export function requireOperatorToken(request: FastifyRequest, operatorToken: string): void {
  if (!checkOperatorToken(request, presentedToken(request), operatorToken)) {
    throw new ApiError(401, 'unauthorized', 'Chýba alebo nesedí token operátora.');
  }
}
