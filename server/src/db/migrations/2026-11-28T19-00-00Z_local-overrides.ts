import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * Local overrides are preview links too (one browser, 24 h, revocable): their version is served from
 * the developer's machine, so the link keeps that loopback origin and what it recorded of the build
 * (its facts and every script's digest, JSON). Null on a preview of a version on the origin.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('release_previews').addColumn('local_origin', 'text').execute();
  await db.schema.alterTable('release_previews').addColumn('local_build', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('release_previews').dropColumn('local_build').execute();
  await db.schema.alterTable('release_previews').dropColumn('local_origin').execute();
}
