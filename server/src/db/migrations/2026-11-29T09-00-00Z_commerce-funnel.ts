import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * The funnel guardrails of the canary watch (domains/releases/funnel-judges.ts): per telemetry
 * session and part version, whether the session showed a product page, added to the basket on a
 * page of it, showed the checkout's basket step and its contact step. Flags, only ever raised.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['product_view', 'basket_add', 'basket_step', 'contact_step']) {
    await db.schema
      .alterTable('client_sessions')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['contact_step', 'basket_step', 'basket_add', 'product_view']) {
    await db.schema.alterTable('client_sessions').dropColumn(column).execute();
  }
}
