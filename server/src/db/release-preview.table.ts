import type { Selectable } from 'kysely';

/** Preview links (domains/releases/previews.repository.ts): one area's version, for the one browser that opened the link. */
export interface ReleasePreviewTable {
  /** Random, 16 characters: how the console names a preview. */
  preview_id: string;
  area: string;
  version: string;
  /** The operator or team credential that asked for it. */
  created_by: string;
  /** ISO, UTC. */
  created_at: string;
  expires_at: string;
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  link_hash: string;
  /** SHA-256 (hex) of the cookie of the browser that opened the link; null until then. */
  browser_hash: string | null;
  opened_at: string | null;
  /** When it was revoked or ended by its browser, and by whom; null while it lasts. */
  ended_at: string | null;
  ended_by: string | null;
  /** A local override's loopback origin (`http://127.0.0.1:<port>`); null: a version on the origin. */
  local_origin: string | null;
  /** A local override's build as the link recorded it (JSON: entry, kernel, react, exposes, routes, script digests). */
  local_build: string | null;
}

export type ReleasePreviewRow = Selectable<ReleasePreviewTable>;
