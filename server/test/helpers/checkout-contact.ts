import type { CheckoutContact, PlaceOrderBody } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';

/** A valid consumer's checkout contact for API tests. */
export const testContact: CheckoutContact = {
  email: 'kupujuci@example.sk',
  phone: '0905 123 456',
  name: 'Peter Kupec',
  billing: { street: 'Hlavná 5', city: 'Martin', zip: '036 01' },
  company: null,
  delivery: null,
};

/** An order of `amount` pieces of one variant, by courier, cash on delivery, with a fresh idempotency key. */
export function courierOrder(v_id: number, amount = 1): PlaceOrderBody {
  return {
    idempotencyKey: randomString(32),
    lines: [{ v_id, amount }],
    contact: testContact,
    shippingCode: 'courier',
    paymentCode: 'cod',
    couponCode: null,
    note: '',
    termsAccepted: true,
  };
}
