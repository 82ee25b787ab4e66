import type { FastifyRequest } from 'fastify';
import type { User } from '@shop/shared-kernel/contract';
import { requestToken, sessionRejected } from './auth.ts';
import { unauthorized } from '../http/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { SessionRepository } from './session.repository.ts';

const SIGN_IN = 'Prihláste sa, prosím.';
const INVALID = 'Prihlásenie je neplatné alebo vypršalo. Prihláste sa znova.';

/**
 * The signed-in user from the Bearer token or the session cookie, or 401: no token, a bad
 * signature, an expired or revoked (logged-out) token, or a user who no longer exists; 403 for a
 * cross-origin unsafe request authenticated by the cookie (auth.ts, requestToken).
 */
export async function requireUser(request: FastifyRequest, deps: Pick<ApiDeps, 'db' | 'tokens' | 'publicUrl'>): Promise<User> {
  const token = requestToken(request, deps.publicUrl);
  if (!token) throw unauthorized(SIGN_IN);
  const claims = await deps.tokens.verify(token);
  if (!claims) {
    sessionRejected(request);
    throw unauthorized(INVALID);
  }
  const sessions = new SessionRepository(deps.db);
  const [revoked, session] = await Promise.all([sessions.isRevoked(claims.jti), sessions.sessionUser(claims.userId)]);
  // A password change, reset or account deletion ends the sessions that began before it.
  if (revoked || !session || claims.issuedAtMs < session.validAfterMs) {
    sessionRejected(request);
    throw unauthorized(INVALID);
  }
  return session.user;
}
