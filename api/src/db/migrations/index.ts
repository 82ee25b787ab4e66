import type { Migration } from 'kysely';
import * as catalog from './2025-11-21T12-00-00Z_catalog.ts';
import * as content from './2025-11-21T12-10-00Z_content.ts';
import * as accountsAndCoupons from './2025-11-21T12-20-00Z_accounts-and-coupons.ts';
import * as shippingAndPayment from './2025-11-21T12-30-00Z_shipping-and-payment.ts';

/**
 * Every migration, keyed by its file name (ISO timestamp first, so the keys sort in run order).
 * A static map, not a folder scan: it works the same under tsx, vitest and any bundler.
 */
export const migrations: Record<string, Migration> = {
  '2025-11-21T12-00-00Z_catalog': catalog,
  '2025-11-21T12-10-00Z_content': content,
  '2025-11-21T12-20-00Z_accounts-and-coupons': accountsAndCoupons,
  '2025-11-21T12-30-00Z_shipping-and-payment': shippingAndPayment,
};
