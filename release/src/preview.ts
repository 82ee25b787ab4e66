/**
 * Preview links: a version published but in force for nobody is loaded by one
 * browser only, the one that opened a link signed with a key derived from the
 * operator token (as an import-map override would, but signed and expiring).
 * The link sets a cookie; the shell host then serves that browser the
 * previewed area instead of the one in force.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isArea, isVersionName, type AreaName } from './registry.ts';

export const PREVIEW_COOKIE = 'shop_preview';
export const PREVIEW_PATH = '/preview';
export const PREVIEW_TTL_MS = 24 * 60 * 60_000;

export type Preview = { area: AreaName; version: string; expires: number };

const key = (operatorToken: string) => createHmac('sha256', operatorToken).update('shop preview links v1').digest();
const sign = (operatorToken: string, payload: string) => createHmac('sha256', key(operatorToken)).update(payload).digest('base64url');

export function signPreview(operatorToken: string, preview: { area: AreaName; version: string }, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ a: preview.area, v: preview.version, e: now + PREVIEW_TTL_MS })).toString('base64url');
  return `${payload}.${sign(operatorToken, payload)}`;
}

/** The preview a token grants, or null when it is forged, malformed or expired. */
export function verifyPreview(operatorToken: string, token: string | undefined, now = Date.now()): Preview | null {
  if (!token || token.length > 400 || !operatorToken) return null;
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(operatorToken, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const { a, v, e } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { a?: unknown; v?: unknown; e?: unknown };
    if (typeof a !== 'string' || !isArea(a) || typeof v !== 'string' || !isVersionName(v) || typeof e !== 'number' || e < now) return null;
    return { area: a, version: v, expires: e };
  } catch {
    return null;
  }
}

export function previewLink(publicUrl: string, operatorToken: string, preview: { area: AreaName; version: string }): string {
  return `${publicUrl}${PREVIEW_PATH}?token=${signPreview(operatorToken, preview)}`;
}
