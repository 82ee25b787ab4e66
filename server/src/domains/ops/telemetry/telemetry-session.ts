/**
 * The telemetry session: a random id the server gives a browser with its first report, in a
 * short-lived HttpOnly cookie of the shop's own (SameSite=Strict), signed so that no one can make
 * one up. The canary watch counts sessions, not reports, so a page that sends the same batch a
 * thousand times counts once; a sender that drops the cookie to get new ones is held to a few
 * sessions per address (the route's limit).
 *
 * It identifies no one: the id is random, lives TELEMETRY_SESSION_SECONDS, is tied to nothing the
 * shop knows about the shopper, and only telemetry reports carry it to the server. It exists to keep
 * a release's health figures honest (a technical cookie, as the canary bucket's).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serialize as serializeCookie } from 'cookie';
import { readCookie } from '../../../infra/http/cookies.ts';
import { shopperCookie } from '../../../infra/auth/auth.ts';

export const TELEMETRY_SESSION_COOKIE = 'shop_telemetry';
/** How long one session lasts: a visit's worth, then the browser gets a new one. */
export const TELEMETRY_SESSION_SECONDS = 30 * 60;
const ID_BYTES = 16;
const SIGNED = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** The key the sessions are signed with, derived from the server's token secret (the same on every server). */
export function telemetrySessionKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('shop telemetry session v1').digest();
}

const signature = (key: Buffer, id: string, expires: number) => createHmac('sha256', key).update(`${id}.${expires}`).digest('base64url');

/** A new session: its id and the cookie's value (`<id>.<expiry in s>.<signature>`). */
export function newSession(key: Buffer, now = Date.now()): { id: string; value: string } {
  const id = randomBytes(ID_BYTES).toString('base64url');
  const expires = Math.floor(now / 1000) + TELEMETRY_SESSION_SECONDS;
  return { id, value: `${id}.${expires}.${signature(key, id, expires)}` };
}

/** The session id of a cookie value the server signed and that has not expired; null otherwise. */
export function verifiedSession(key: Buffer, value: string | undefined, now = Date.now()): string | null {
  const match = value ? SIGNED.exec(value) : null;
  if (!match) return null;
  const [, id, expiresText, given] = match as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  if (expires * 1000 <= now || expires * 1000 > now + TELEMETRY_SESSION_SECONDS * 1000) return null;
  const expected = Buffer.from(signature(key, id, expires));
  const received = Buffer.from(given);
  return expected.length === received.length && timingSafeEqual(expected, received) ? id : null;
}

/** The cookie as this shop writes it (`__Host-` over https; over http only on the telemetry path). */
const cookieOf = (publicUrl: string) => shopperCookie(TELEMETRY_SESSION_COOKIE, publicUrl, '/api/telemetry');

/** The session of this request's cookie, or null. */
export function requestSession(request: FastifyRequest, key: Buffer, publicUrl: string): string | null {
  return verifiedSession(key, readCookie(request.headers.cookie, cookieOf(publicUrl).name));
}

/** Gives the browser its session's cookie. */
export function setSessionCookie(reply: FastifyReply, value: string, publicUrl: string): void {
  const { name, path, secure } = cookieOf(publicUrl);
  reply.header(
    'set-cookie',
    serializeCookie(name, value, { httpOnly: true, sameSite: 'strict', path, secure, maxAge: TELEMETRY_SESSION_SECONDS }),
  );
}
