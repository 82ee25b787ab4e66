/**
 * The shipping and payment price list, built from the same rows and rules
 * the checkout prices orders with, so the information page can never
 * disagree with the checkout.
 */
import type { ShippingPriceList } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';
import { gross, PALLET_GRAMS, PARCEL_LIMIT_GRAMS, paymentRestriction } from './pricing.ts';
import { CheckoutRepository } from './checkout.repository.ts';

export async function priceList(db: DbOrTrx): Promise<ShippingPriceList> {
  const methods = new CheckoutRepository(db);
  const [shipping, bands, payment] = await Promise.all([methods.shippingMethods(), methods.weightBands(), methods.paymentMethods()]);
  return {
    shipping: shipping.map((method) => ({
      code: method.sm_code,
      name: method.sm_name,
      description: method.sm_description,
      price: gross(method.sm_price, method.sm_vat),
      bands: bands
        .filter((band) => band.sm_code === method.sm_code)
        .map((band) => ({ maxWeight: band.max_weight, price: gross(band.price, method.sm_vat) })),
      freeFrom: method.sm_free_from,
      maxWeight: method.sm_max_weight,
      pallet: method.sm_code === 'pallet' ? { perWeight: PALLET_GRAMS, minWeight: PARCEL_LIMIT_GRAMS } : null,
    })),
    payment: payment.map((method) => ({
      code: method.pm_code,
      name: method.pm_name,
      description: method.pm_description,
      price: gross(method.pm_price, method.pm_vat),
      onlyWith: shipping.map((s) => s.sm_code).filter((code) => paymentRestriction(method.pm_code, code) === null),
    })),
  };
}
