import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { FastifyRequest } from 'fastify';

/** Signed, stateless tokens: HS256 with payload { user_id }, valid 7 days. */
export const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;

export type TokenClaims = {
  userId: number;
  jti: string;
  expiresAt: Date;
  /** When the token was issued, in milliseconds (iat_ms claim, else iat), so a password change can end older sessions. */
  issuedAtMs: number;
};

export type TokenService = {
  issue(userId: number): Promise<string>;
  /** The claims of a well-signed, unexpired token, or null. */
  verify(token: string): Promise<TokenClaims | null>;
};

export function createTokenService(secret: string): TokenService {
  if (secret.length < 16) throw new Error('jwtSecret must be at least 16 characters');
  const key = new TextEncoder().encode(secret);
  return {
    async issue(userId) {
      return new SignJWT({ user_id: userId, iat_ms: Date.now() })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt()
        .setJti(randomUUID())
        .setExpirationTime(`${TOKEN_TTL_SECONDS}s`)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const userId = payload['user_id'];
        if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId < 1) return null;
        if (typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return null;
        const iatMs = payload['iat_ms'];
        const issuedAtMs = typeof iatMs === 'number' ? iatMs : (payload.iat ?? 0) * 1000;
        return { userId, jti: payload.jti, expiresAt: new Date(payload.exp * 1000), issuedAtMs };
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
  };
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
