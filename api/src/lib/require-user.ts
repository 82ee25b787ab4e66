import type { FastifyRequest } from 'fastify';
import type { User } from '@shop/shared-kernel/contract';
import { bearerToken } from '../../lib/auth.ts';
import { unauthorized } from '../../lib/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { UserRepository } from './user.repository.ts';

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
  const users = new UserRepository(deps.db);
  const [revoked, user, validAfter] = await Promise.all([
    users.isRevoked(claims.jti),
    users.byId(claims.userId),
    users.sessionsValidAfter(claims.userId),
  ]);
  // A password change, reset or account deletion ends the sessions that began before it.
  if (revoked || !user || validAfter === null || claims.issuedAtMs < validAfter) throw unauthorized(INVALID);
  return user;
}
