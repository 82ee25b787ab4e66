/**
 * Account rules shared by the browser and the API: passwords,
 * profile and address validation (reusing the checkout's Slovak contact
 * rules for phone, PSČ and IČO/DIČ/IČ DPH), order state labels, the 14-day
 * withdrawal and 30-day complaint periods, and the checkout prefill merge.
 * Pure, React-free.
 */
import { CONTACT_MESSAGES, emptyContact, isValidEmail, normalizeSlovakPhone, validateContact } from './checkout-rules.ts';
import type { AddressInput, CheckoutPrefill, ComplaintReason, ComplaintState, OrderState, ProfileInput } from '../contract/index.ts';
import type { CheckoutContact } from '../contract/index.ts';
import { shopPaths } from '../contract/shop-paths.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const WITHDRAWAL_DAYS = 14;
export const COMPLAINT_SETTLE_DAYS = 30;
export const COMPLAINT_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const COMPLAINT_PHOTO_MAX_COUNT = 5;
export const COMPLAINT_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/**
 * Where a guest goes from a page that needs a signed-in shopper (`requiresSignIn`): the sign-in
 * page, with the page they wanted (and its query) as `next`, where they come back after signing in.
 */
export function signInPath(pathname: string, search = ''): string {
  return shopPaths.signIn(`${pathname}${search}`);
}
const DAY_MS = 86_400_000;

export const ACCOUNT_MESSAGES = {
  password: `Heslo musí mať aspoň ${PASSWORD_MIN_LENGTH} znakov a obsahovať písmeno aj číslicu.`,
  passwordsDiffer: 'Heslá sa nezhodujú.',
  name: CONTACT_MESSAGES.name,
  email: CONTACT_MESSAGES.email,
  phone: CONTACT_MESSAGES.phone,
  registered: 'Ak tento e-mail u nás ešte nemá účet, práve sme ho vytvorili. Prihláste sa a skontrolujte si e-mail.',
  resetSent: 'Ak k tomuto e-mailu existuje účet, poslali sme naň odkaz na nastavenie nového hesla. Platí 1 hodinu.',
  tooMany: 'Príliš veľa pokusov. Skúste to, prosím, o niekoľko minút.',
} as const;

export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  received: 'Prijatá',
  paid: 'Zaplatená',
  shipped: 'Odoslaná',
  delivered: 'Doručená',
  cancelled: 'Zrušená',
  withdrawn: 'Odstúpená',
};

export const COMPLAINT_REASON_LABELS: Record<ComplaintReason, string> = {
  defect: 'Chybný tovar',
  damaged: 'Poškodený pri preprave',
  wrong_item: 'Dodaný iný tovar',
  missing_part: 'Chýbajúca časť',
  other: 'Iný dôvod',
};

export const COMPLAINT_STATE_LABELS: Record<ComplaintState, string> = {
  received: 'Prijatá',
  in_progress: 'V riešení',
  accepted: 'Uznaná',
  rejected: 'Zamietnutá',
};

/** Null when the password is good enough, else the Slovak message. */
export function checkPassword(password: string): string | null {
  return password.length >= PASSWORD_MIN_LENGTH && password.length <= 256 && /\p{L}/u.test(password) && /\d/.test(password)
    ? null
    : ACCOUNT_MESSAGES.password;
}

/** Field errors of a profile: name, e-mail, optional phone, company data when given. */
export function validateProfile(input: ProfileInput): Partial<Record<string, string>> {
  const contact: CheckoutContact = {
    ...emptyContact(),
    email: input.email,
    name: input.name,
    phone: input.phone.trim() ? input.phone : '+421905000000',
    billing: { street: 'Ulica 1', city: 'Mesto', zip: '01001' },
    company: input.company,
  };
  const errors = validateContact(contact);
  if (!isValidEmail(input.email)) errors.email = CONTACT_MESSAGES.email;
  return errors;
}

/** Field errors of an address (name, street, city, PSČ) with the checkout's messages. */
export function validateAddress(input: Pick<AddressInput, 'name' | 'street' | 'city' | 'zip'>): Partial<Record<string, string>> {
  const errors = validateContact({
    ...emptyContact(),
    email: 'a@b.sk',
    phone: '+421905000000',
    name: 'Meno Priezvisko',
    billing: { street: 'Ulica 1', city: 'Mesto', zip: '01001' },
    delivery: { name: input.name, street: input.street, city: input.city, zip: input.zip },
  });
  const out: Partial<Record<string, string>> = {};
  for (const [key, message] of Object.entries(errors)) out[key.replace(/^delivery\./, '')] = message;
  return out;
}

/** The phone as +421…, '' when empty, null when not a Slovak number. */
export function normalizeOptionalPhone(phone: string): string | null {
  return phone.trim() === '' ? '' : normalizeSlovakPhone(phone);
}

/** End of the withdrawal period: 14 days after delivery (end of that day, UTC). */
export function withdrawalDeadline(deliveredAt: string): string {
  const end = new Date(deliveredAt);
  end.setUTCHours(23, 59, 59, 999);
  return new Date(end.getTime() + WITHDRAWAL_DAYS * DAY_MS).toISOString();
}

/** When the shop must settle a complaint filed at `createdAt` (30 days). */
export function complaintSettleBy(createdAt: string): string {
  return new Date(new Date(createdAt).getTime() + COMPLAINT_SETTLE_DAYS * DAY_MS).toISOString();
}

/** Whole days left until `deadline` (0 on the last day, negative after). */
export function daysLeft(deadline: string, now: Date = new Date()): number {
  return Math.floor((new Date(deadline).getTime() - now.getTime()) / DAY_MS);
}

/** The file type of an image upload from its first bytes (JPEG, PNG, WebP), else null. */
export function imageTypeOf(bytes: Uint8Array): (typeof COMPLAINT_PHOTO_TYPES)[number] | null {
  const b = (i: number) => bytes[i] ?? -1;
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'image/jpeg';
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b(i) === v)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...Array.from(bytes.subarray(from, to)));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/**
 * The checkout contact with the account's data filled into the fields the
 * shopper left empty; what the shopper typed is never overwritten. Company and
 * delivery address come in only when the draft has none.
 */
export function mergeCheckoutPrefill(current: CheckoutContact, prefill: CheckoutPrefill): CheckoutContact {
  const from = prefill.contact;
  const billingEmpty = !current.billing.street && !current.billing.city && !current.billing.zip;
  return {
    email: current.email || from.email,
    phone: current.phone || from.phone,
    name: current.name || from.name,
    billing: billingEmpty ? { ...from.billing } : current.billing,
    company: current.company ?? (from.company ? { ...from.company } : null),
    delivery: current.delivery ?? (from.delivery ? { ...from.delivery } : null),
  };
}
