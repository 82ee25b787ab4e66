import type { FastifyRequest } from 'fastify';
import type { User } from '@shop/shared-kernel/contract';
import { bearerToken } from './auth.ts';
import { unauthorized } from './errors.ts';
import type { ApiDeps } from './deps.ts';
import { SessionRepository } from './session.repository.ts';

const SIGN_IN = 'Prihláste sa, prosím.';
const INVALID = 'Prihlásenie je neplatné alebo vypršalo. Prihláste sa znova.';

/**
 * The signed-in user from the Bearer token, or 401: no token, a bad signature, an expired or
 * revoked (logged-out) token, or a user who no longer exists.
 */
export async function requireUser(request: FastifyRequest, deps: Pick<ApiDeps, 'db' | 'tokens'>): Promise<User> {
  const token = bearerToken(request);
  if (!token) throw unauthorized(SIGN_IN);
  const claims = await deps.tokens.verify(token);
  if (!claims) throw unauthorized(INVALID);
  const sessions = new SessionRepository(deps.db);
  const [revoked, session] = await Promise.all([sessions.isRevoked(claims.jti), sessions.sessionUser(claims.userId)]);
  // A password change, reset or account deletion ends the sessions that began before it.
  if (revoked || !session || claims.issuedAtMs < session.validAfterMs) throw unauthorized(INVALID);
  return session.user;
}
