import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../http/errors.ts';

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

/**
 * The browser's session: the same token in an HttpOnly cookie, so no script on the page can read
 * it. Path=/api: pages never carry it, so they stay the same for everyone (and cacheable).
 */
export const SESSION_COOKIE = 'shop_session';
/** A JWT is far shorter; a longer cookie is not ours and is ignored. */
const MAX_COOKIE_TOKEN = 4096;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CROSS_SITE = 'Požiadavka z inej stránky bola odmietnutá. Obnovte stránku obchodu a skúste to znova.';

/** The session cookie's token as sent, or null. */
export function sessionCookieToken(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header || !header.includes(`${SESSION_COOKIE}=`)) return null;
  const value = parseCookies(header)[SESSION_COOKIE];
  return value && value.length <= MAX_COOKIE_TOKEN ? value : null;
}

/** Whether the request carries the session cookie (caches treat it as credentials). */
export function hasSessionCookie(request: FastifyRequest): boolean {
  return sessionCookieToken(request) !== null;
}

/**
 * The shopper's CSRF rule, the one place it lives: a request that the session cookie authenticates
 * and that may change something must come from the shop's own pages. (The operator's cookie lives
 * on the operator origin under a stricter rule of its own: operator-auth.ts.) The
 * browser sets Sec-Fetch-Site and Origin itself (a page cannot forge them). Sec-Fetch-Site, which
 * every current browser sends, is the browser's own judgement, whatever address the shop was
 * opened at (localhost or 127.0.0.1); without it (an older browser), Origin must be the configured
 * PUBLIC_URL's, never one derived from Host, which the sender controls.
 */
export function isCrossSite(request: FastifyRequest, publicUrl: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  return origin !== undefined && origin !== new URL(publicUrl).origin;
}

export function assertSameOrigin(request: FastifyRequest, publicUrl: string): void {
  if (isCrossSite(request, publicUrl)) throw forbidden(CROSS_SITE);
}

/**
 * The token of this request: the Bearer token of an API client, else the browser's session cookie
 * (then the CSRF rule applies: 403 for a cross-origin unsafe request).
 */
export function requestToken(request: FastifyRequest, publicUrl: string): string | null {
  const bearer = bearerToken(request);
  if (bearer) return bearer;
  const cookie = sessionCookieToken(request);
  if (cookie) assertSameOrigin(request, publicUrl);
  return cookie;
}

/** Secure only when the shop is served over https (a plain-http local shop would never get it back). */
function cookieOptions(publicUrl: string) {
  return { httpOnly: true, sameSite: 'lax', path: '/api', secure: new URL(publicUrl).protocol === 'https:' } as const;
}

/** Sets the session cookie to a token just issued; it lives as long as the token. */
export function setSessionCookie(reply: FastifyReply, token: string, publicUrl: string): void {
  reply.header('set-cookie', serializeCookie(SESSION_COOKIE, token, { ...cookieOptions(publicUrl), maxAge: TOKEN_TTL_SECONDS }));
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.header('set-cookie', serializeCookie(SESSION_COOKIE, '', { ...cookieOptions(publicUrl), maxAge: 0 }));
}

const rejectedSessions = new WeakSet<FastifyRequest>();

/** The token this request authenticated with was refused (401); when it came from the cookie, the answer clears it. */
export function sessionRejected(request: FastifyRequest): void {
  if (!bearerToken(request) && hasSessionCookie(request)) rejectedSessions.add(request);
}

/**
 * On every /api answer to a request with credentials (Bearer or session cookie): it depends on who
 * asks, so no shared cache may keep it (`private, no-store` unless the route chose its own private
 * policy); and a 401 to a cookie means the session is over (expired, signed out elsewhere, password
 * changed), so the cookie goes (sessionRejected), and the browser is a guest again rather than refused on every call.
 */
export function sessionAnswers(api: FastifyInstance, publicUrl: string): void {
  api.addHook('onSend', async (request, reply, payload) => {
    const cookie = hasSessionCookie(request);
    if (!cookie && request.headers.authorization === undefined) return payload;
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-store');
    if (rejectedSessions.has(request)) clearSessionCookie(reply, publicUrl);
    return payload;
  });
}
