/**
 * Preview links: a version published but in force for nobody is loaded by one browser only, the
 * first that opens a link the server made (as an import-map override would, but issued, listed and
 * revocable on /ops). Opening it sets a cookie of that browser's own; the shell host then serves that
 * browser the previewed area instead of the one in force. The server keeps the links
 * (server/src/domains/releases/previews.repository.ts); these are the names both sides share.
 */
import type { LocalBuild } from './local-override.ts';
import type { AreaName } from './registry.ts';

export const PREVIEW_COOKIE = 'shop_preview';
export const PREVIEW_PATH = '/preview';
export const PREVIEW_TTL_MS = 24 * 60 * 60_000;

/** `local`: a local override (./local-override.ts), served from the developer's machine instead of the origin. */
export type Preview = { area: AreaName; version: string; expires: number; local?: LocalBuild };

/** The address a link token opens. */
export function previewLink(publicUrl: string, token: string): string {
  return `${publicUrl}${PREVIEW_PATH}?token=${token}`;
}
