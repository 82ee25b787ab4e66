import type { CheckoutContact } from '@shop/shared-kernel/contract';

/** A valid consumer's checkout contact for API tests. */
export const testContact: CheckoutContact = {
  email: 'kupujuci@example.sk',
  phone: '0905 123 456',
  name: 'Peter Kupec',
  billing: { street: 'Hlavná 5', city: 'Martin', zip: '036 01' },
  company: null,
  delivery: null,
};
