import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/** The hours list the contact page carried in its seeded HTML; the page now states them from the kernel's rule. */
const HOURS_BLOCK = /\s*<h2>Otváracie hodiny<\/h2>\s*<ul>[\s\S]*?<\/ul>/;

/** The contact page's HTML no longer states opening hours of its own (they contradicted the header on weekends). */
export async function up(db: Kysely<any>): Promise<void> {
  const page = await db.selectFrom('pages').select(['content_html']).where('slug', '=', 'kontakt').executeTakeFirst();
  if (!page || !HOURS_BLOCK.test(page.content_html as string)) return;
  await db
    .updateTable('pages')
    .set({ content_html: (page.content_html as string).replace(HOURS_BLOCK, '') })
    .where('slug', '=', 'kontakt')
    .execute();
}

export async function down(): Promise<void> {
  // The removed block contradicted the header; it is not put back.
}
