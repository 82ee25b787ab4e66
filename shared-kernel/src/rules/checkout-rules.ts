/**
 * Checkout rules shared by the browser and the API: the contact step's field validation with a
 * Slovak message per field. Pure, React-free. (An order's totals and VAT: order-totals.ts.)
 */
import type { CheckoutContact, CompanyData, PostalAddress } from '../contract/index.ts';

export const CONTACT_MESSAGES = {
  email: 'Zadajte platný e-mail, napr. jan.novak@example.sk.',
  phone: 'Zadajte slovenské telefónne číslo v tvare +421 9xx xxx xxx alebo 09xx xxx xxx.',
  name: 'Zadajte meno a priezvisko.',
  street: 'Zadajte ulicu a číslo domu.',
  city: 'Zadajte mesto alebo obec.',
  zip: 'PSČ má 5 číslic, napr. 010 01.',
  companyName: 'Zadajte obchodné meno firmy.',
  ico: 'IČO má 8 číslic.',
  dic: 'DIČ má 10 číslic.',
  icDph: 'IČ DPH má tvar SK a 10 číslic (alebo nechajte prázdne).',
} as const;

/** Field paths of the contact form, e.g. 'billing.zip', 'company.ico', 'delivery.name'. */
export type ContactErrors = Partial<Record<string, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email.trim());
}

/**
 * A Slovak phone number as +421 followed by 9 digits, from the usual forms:
 * "+421 905 123 456", "00421905123456", "0905 123 456", "0905/123 456",
 * "+421 (41) 555 12 34". Null when it is not one.
 */
export function normalizeSlovakPhone(input: string): string | null {
  const compact = input.replace(/[\s/().-]/g, '');
  let national: string | null = null;
  if (/^\+421\d{9}$/.test(compact)) national = compact.slice(4);
  else if (/^00421\d{9}$/.test(compact)) national = compact.slice(5);
  else if (/^0\d{9}$/.test(compact)) national = compact.slice(1);
  if (national === null || national.startsWith('0')) return null;
  return `+421${national}`;
}

/** PSČ as five digits without the space ("010 01" → "01001"), null when not five digits. */
export function normalizeZip(input: string): string | null {
  const compact = input.replace(/\s/g, '');
  return /^\d{5}$/.test(compact) ? compact : null;
}

function checkAddress(errors: ContactErrors, prefix: string, address: PostalAddress | undefined): void {
  const street = address?.street?.trim() ?? '';
  if (street.length < 3 || !/\d/.test(street)) errors[`${prefix}.street`] = CONTACT_MESSAGES.street;
  if ((address?.city?.trim() ?? '').length < 2) errors[`${prefix}.city`] = CONTACT_MESSAGES.city;
  if (normalizeZip(address?.zip ?? '') === null) errors[`${prefix}.zip`] = CONTACT_MESSAGES.zip;
}

function checkName(value: string | undefined): boolean {
  const parts = (value ?? '').trim().split(/\s+/).filter(Boolean);
  return parts.length >= 2 && parts.join(' ').length >= 3;
}

function checkCompany(errors: ContactErrors, company: CompanyData): void {
  if ((company.name?.trim() ?? '').length < 2) errors['company.name'] = CONTACT_MESSAGES.companyName;
  if (!/^\d{8}$/.test((company.ico ?? '').replace(/\s/g, ''))) errors['company.ico'] = CONTACT_MESSAGES.ico;
  if (!/^\d{10}$/.test((company.dic ?? '').replace(/\s/g, ''))) errors['company.dic'] = CONTACT_MESSAGES.dic;
  const icDph = (company.icDph ?? '').replace(/\s/g, '').toUpperCase();
  if (icDph !== '' && !/^SK\d{10}$/.test(icDph)) errors['company.icDph'] = CONTACT_MESSAGES.icDph;
}

/** One Slovak message per invalid field; an empty object when the contact is complete. */
export function validateContact(contact: CheckoutContact): ContactErrors {
  const errors: ContactErrors = {};
  const email = contact.email?.trim() ?? '';
  if (!EMAIL.test(email) || email.length > 254) errors.email = CONTACT_MESSAGES.email;
  if (normalizeSlovakPhone(contact.phone ?? '') === null) errors.phone = CONTACT_MESSAGES.phone;
  if (!checkName(contact.name)) errors.name = CONTACT_MESSAGES.name;
  checkAddress(errors, 'billing', contact.billing);
  if (contact.company) checkCompany(errors, contact.company);
  if (contact.delivery) {
    if (!checkName(contact.delivery.name)) errors['delivery.name'] = CONTACT_MESSAGES.name;
    checkAddress(errors, 'delivery', contact.delivery);
  }
  return errors;
}

/** The contact with trimmed text, the phone as +421…, PSČ as five digits and IČ DPH upper-case. */
export function normalizeContact(contact: CheckoutContact): CheckoutContact {
  const address = (a: PostalAddress): PostalAddress => ({
    street: a.street.trim(),
    city: a.city.trim(),
    zip: normalizeZip(a.zip) ?? a.zip.trim(),
  });
  return {
    email: contact.email.trim().toLowerCase(),
    phone: normalizeSlovakPhone(contact.phone) ?? contact.phone.trim(),
    name: contact.name.trim().replace(/\s+/g, ' '),
    billing: address(contact.billing),
    company: contact.company
      ? {
          name: contact.company.name.trim(),
          ico: contact.company.ico.replace(/\s/g, ''),
          dic: contact.company.dic.replace(/\s/g, ''),
          icDph: contact.company.icDph.replace(/\s/g, '').toUpperCase(),
        }
      : null,
    delivery: contact.delivery ? { name: contact.delivery.name.trim().replace(/\s+/g, ' '), ...address(contact.delivery) } : null,
  };
}

/** An empty contact form. */
export function emptyContact(): CheckoutContact {
  return {
    email: '',
    phone: '',
    name: '',
    billing: { street: '', city: '', zip: '' },
    company: null,
    delivery: null,
  };
}
