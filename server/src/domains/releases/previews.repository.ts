/**
 * Preview links: one area's version, in force for nobody, loaded by the one browser that opened the
 * link. Each link is a row (listed on /ops and in the script inventory, revocable one by one); its
 * token is random and used once: opening it ties the preview to that browser's own random cookie, and
 * the same link opened anywhere else is refused. Only SHA-256 of either token is stored, so a copy of
 * the database opens no preview.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { PREVIEW_TTL_MS, type AreaName, type LocalBuild, type Preview } from '@shop/release';
import type { DbOrTrx } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { ReleasePreviewRow } from '../../db/release-preview.table.ts';

/** Previews of one area running at once: beyond it, new links are refused until some end or are revoked. */
export const MAX_OPEN_PREVIEWS = 50;
/** Ended and expired previews are kept this long for the record, then removed. */
const KEPT_AFTER_END_MS = 30 * 24 * 60 * 60_000;
/** The advisory lock new previews queue on (PostgreSQL): any fixed number the shop uses for nothing else. */
const PREVIEW_LOCK_KEY = 7_311_050;
/** A token is 32 random bytes, base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const token = () => randomBytes(32).toString('base64url');
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export type OpenedPreview = { preview: Preview; browserToken: string };
/** Why a link did not open: unknown, expired or revoked (`invalid`), or already opened by another browser. */
export type PreviewRefusal = 'invalid' | 'opened-elsewhere';
export type PreviewListing = {
  id: string;
  area: string;
  version: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  openedAt: string | null;
  /** A local override's loopback origin (served from the developer's machine); null: a version on the origin. */
  local: string | null;
};

export class TooManyPreviews extends Error {}

const grantOf = (row: Pick<ReleasePreviewRow, 'area' | 'version' | 'expires_at' | 'local_build'>): Preview => ({
  area: row.area as AreaName,
  version: row.version,
  expires: Date.parse(row.expires_at),
  // Recorded by the server when the link was made (checked then), never read from a request since.
  ...(row.local_build ? { local: JSON.parse(row.local_build) as LocalBuild } : {}),
});

export function releasePreviews(db: DbOrTrx) {
  /** The rows of previews that last at `now`: not ended, not expired. */
  const lastingRows = (now: Date) =>
    db.selectFrom('release_previews').where('ended_at', 'is', null).where('expires_at', '>', now.toISOString());

  return {
    /**
     * A new link for one area's version (`local`: a local override, the build it recorded); the token
     * is returned once and never stored.
     */
    async create(
      input: { area: AreaName; version: string; by: string; local?: LocalBuild },
      now = new Date(),
    ): Promise<{ id: string; token: string; expires: string }> {
      const linkToken = token();
      const id = randomBytes(12).toString('base64url');
      const expires = new Date(now.getTime() + PREVIEW_TTL_MS).toISOString();
      // Counted and added in one transaction, serialised on PostgreSQL (SQLite has one writer), so two at once cannot pass the bound.
      await db.transaction().execute(async (trx) => {
        if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${PREVIEW_LOCK_KEY})`.execute(trx);
        await trx
          .deleteFrom('release_previews')
          .where('expires_at', '<', new Date(now.getTime() - KEPT_AFTER_END_MS).toISOString())
          .execute();
        const open = await trx
          .selectFrom('release_previews')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('area', '=', input.area)
          .where('ended_at', 'is', null)
          .where('expires_at', '>', now.toISOString())
          .executeTakeFirstOrThrow();
        if (Number(open.n) >= MAX_OPEN_PREVIEWS) throw new TooManyPreviews();
        await trx
          .insertInto('release_previews')
          .values({
            preview_id: id,
            area: input.area,
            version: input.version.slice(0, 64),
            created_by: input.by.slice(0, 200),
            created_at: now.toISOString(),
            expires_at: expires,
            link_hash: digest(linkToken),
            browser_hash: null,
            opened_at: null,
            ended_at: null,
            ended_by: null,
            local_origin: input.local?.origin ?? null,
            local_build: input.local ? JSON.stringify(input.local) : null,
          })
          .execute();
      });
      return { id, token: linkToken, expires };
    },

    /**
     * Opens a link in a browser: the first browser to open it gets its own token (the cookie); the one
     * conditional update decides, so two browsers opening it at once cannot both win. The browser that
     * holds it already (its cookie) may open it again.
     */
    async open(linkToken: string, browserToken: string | undefined, now = new Date()): Promise<OpenedPreview | PreviewRefusal> {
      if (!TOKEN.test(linkToken)) return 'invalid';
      const row = await lastingRows(now).selectAll().where('link_hash', '=', digest(linkToken)).executeTakeFirst();
      if (!row) return 'invalid';
      if (row.browser_hash !== null) {
        return browserToken && TOKEN.test(browserToken) && digest(browserToken) === row.browser_hash
          ? { preview: grantOf(row), browserToken }
          : 'opened-elsewhere';
      }
      const mine = token();
      const claimed = await db
        .updateTable('release_previews')
        .set({ browser_hash: digest(mine), opened_at: now.toISOString() })
        .where('preview_id', '=', row.preview_id)
        .where('browser_hash', 'is', null)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) === 1 ? { preview: grantOf(row), browserToken: mine } : 'opened-elsewhere';
    },

    /** The preview this browser's cookie holds, while it lasts (every page asks: a revocation ends it at once). */
    async held(browserToken: string, now = new Date()): Promise<Preview | null> {
      if (!TOKEN.test(browserToken)) return null;
      const row = await lastingRows(now)
        .select(['area', 'version', 'expires_at', 'local_build'])
        .where('browser_hash', '=', digest(browserToken))
        .executeTakeFirst();
      return row ? grantOf(row) : null;
    },

    /** The browser ends its own preview. */
    async end(browserToken: string, now = new Date()): Promise<void> {
      if (!TOKEN.test(browserToken)) return;
      await db
        .updateTable('release_previews')
        .set({ ended_at: now.toISOString(), ended_by: 'prehliadač' })
        .where('browser_hash', '=', digest(browserToken))
        .where('ended_at', 'is', null)
        .execute();
    },

    /** Previews that last (not ended, not expired), newest first; of one area when asked. */
    async lasting(filter: { area?: string } = {}, now = new Date()): Promise<PreviewListing[]> {
      let query = lastingRows(now).selectAll();
      if (filter.area) query = query.where('area', '=', filter.area);
      const rows = await query.orderBy('created_at', 'desc').limit(200).execute();
      return rows.map((row) => ({
        id: row.preview_id,
        area: row.area,
        version: row.version,
        createdBy: row.created_by,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        openedAt: row.opened_at,
        local: row.local_origin,
      }));
    },

    /** Revokes one preview; its browser gets the version in force from its next page on. Null: none such lasts. */
    async revoke(id: string, by: string, now = new Date()): Promise<{ area: string; version: string } | null> {
      const row = await lastingRows(now).select(['area', 'version']).where('preview_id', '=', id).executeTakeFirst();
      if (!row) return null;
      const done = await db
        .updateTable('release_previews')
        .set({ ended_at: now.toISOString(), ended_by: by.slice(0, 200) })
        .where('preview_id', '=', id)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1 ? row : null;
    },
  };
}

export type ReleasePreviews = ReturnType<typeof releasePreviews>;
