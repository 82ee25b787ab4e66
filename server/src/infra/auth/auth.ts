import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { serialize as serializeCookie } from 'cookie';
import { readCookie } from '../http/cookies.ts';
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
 * it. Its name and scope follow the shop's public address (sessionCookie).
 */
export const SESSION_COOKIE = 'shop_session';
/** A JWT is far shorter; a longer cookie is not ours and is ignored. */
const MAX_COOKIE_TOKEN = 4096;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CROSS_SITE = 'Požiadavka z inej stránky bola odmietnutá. Obnovte stránku obchodu a skúste to znova.';

/**
 * How a shopper's cookie is written, the session's and the shop's others alike:
 * - over https (PUBLIC_URL): `__Host-<name>`, Secure, Path=/, no Domain. The prefix makes the
 *   browser refuse a cookie of that name set by any other host (a sibling subdomain cannot plant a
 *   session, "cookie tossing"), and it requires Path=/: pages then carry the session too, and read
 *   nothing of it (they are the same for everyone);
 * - over plain http (`npm start` on localhost): the plain name (the prefix needs https), Path as the
 *   caller asks, and Secure whenever NODE_ENV is production: Chromium and Firefox keep a Secure
 *   cookie from http://localhost, so the local shop still signs in, and a production server never
 *   depends on configuration for it.
 */
export function shopperCookie(
  name: string,
  publicUrl: string,
  httpPath = '/',
  production = process.env.NODE_ENV === 'production',
): { name: string; path: string; secure: boolean } {
  const https = new URL(publicUrl).protocol === 'https:';
  if (https) return { name: `__Host-${name}`, path: '/', secure: true };
  return { name, path: httpPath, secure: production };
}

/** The session cookie: over http on /api only (pages never carry it), over https `__Host-` on / (shopperCookie). */
export const sessionCookie = (publicUrl: string) => shopperCookie(SESSION_COOKIE, publicUrl, '/api');

/** The session cookie's token as sent under the name this shop's address gives it (sessionCookie), or null. */
export function sessionCookieToken(request: FastifyRequest, publicUrl: string): string | null {
  const value = readCookie(request.headers.cookie, sessionCookie(publicUrl).name);
  return value && value.length <= MAX_COOKIE_TOKEN ? value : null;
}

const ANY_SESSION_COOKIE = new RegExp(`(?:^|;)\\s*(?:__Host-)?${SESSION_COOKIE}=[^;\\s]`);

/** Whether the request carries a session cookie under either name (caches treat it as credentials, whichever it is). */
export function hasSessionCookie(request: FastifyRequest): boolean {
  return ANY_SESSION_COOKIE.test(request.headers.cookie ?? '');
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
  const cookie = sessionCookieToken(request, publicUrl);
  if (cookie) assertSameOrigin(request, publicUrl);
  return cookie;
}

function cookieOptions(publicUrl: string) {
  const { path, secure } = sessionCookie(publicUrl);
  return { httpOnly: true, sameSite: 'lax', path, secure } as const;
}

/** Sets the session cookie to a token just issued; it lives as long as the token. */
export function setSessionCookie(reply: FastifyReply, token: string, publicUrl: string): void {
  const { name } = sessionCookie(publicUrl);
  reply.header('set-cookie', serializeCookie(name, token, { ...cookieOptions(publicUrl), maxAge: TOKEN_TTL_SECONDS }));
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.header('set-cookie', serializeCookie(sessionCookie(publicUrl).name, '', { ...cookieOptions(publicUrl), maxAge: 0 }));
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
