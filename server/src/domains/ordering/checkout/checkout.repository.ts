import type { DbOrTrx } from '../../../db/database.ts';

/** What the checkout prices with: the ordered variants, and the active shipping and payment methods. */
export class CheckoutRepository {
  constructor(private readonly db: DbOrTrx) {}

  /** The variants of a basket with what pricing and stock checks need. */
  async variants(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('variants as v')
      .innerJoin('products as p', 'p.p_id', 'v.p_id')
      .select([
        'v.v_id',
        'v.p_id',
        'v.v_code',
        'v.v_name',
        'v.v_unit',
        'p.p_name',
        'v.v_sell_price',
        'v.v_vat',
        'v.v_sale',
        'v.v_stock',
        'v.v_availability',
        'v.v_weight',
      ])
      .where('v.v_id', 'in', ids)
      .execute();
  }

  /** Active shipping methods in the order the shop lists them. */
  shippingMethods() {
    return this.db.selectFrom('shipping_methods').selectAll().where('sm_active', '=', 1).orderBy('sm_position').orderBy('sm_id').execute();
  }

  /** Weight bands of the shipping methods priced by weight, lightest first. */
  weightBands() {
    return this.db.selectFrom('shipping_weight_bands').selectAll().orderBy('max_weight').execute();
  }

  /** Active payment methods in the order the shop lists them. */
  paymentMethods() {
    return this.db.selectFrom('payment_methods').selectAll().where('pm_active', '=', 1).orderBy('pm_position').orderBy('pm_id').execute();
  }
}
