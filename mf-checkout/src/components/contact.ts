import type { CheckoutContact } from '@shop/shared-kernel/contract';

export const EMPTY_COMPANY = { name: '', ico: '', dic: '', icDph: '' };
export const EMPTY_DELIVERY = { name: '', street: '', city: '', zip: '' };

/** The contact as it will be sent: company and delivery only when ticked. */
export function effectiveContact(contact: CheckoutContact, companyPurchase: boolean, differentDelivery: boolean): CheckoutContact {
  return {
    ...contact,
    company: companyPurchase ? (contact.company ?? EMPTY_COMPANY) : null,
    delivery: differentDelivery ? (contact.delivery ?? EMPTY_DELIVERY) : null,
  };
}
