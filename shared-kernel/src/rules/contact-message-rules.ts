/**
 * The contact form's rules, shared by the form and the API: a Slovak
 * message per field. Pure, React-free.
 */
import { CONTACT_MESSAGES, isValidEmail, normalizeSlovakPhone } from './checkout-rules.ts';

export type ContactMessageInput = { name: string; email: string; phone: string; message: string };
export type ContactMessageErrors = Partial<Record<keyof ContactMessageInput, string>>;

export const CONTACT_MESSAGE_LIMITS = { name: 100, message: 5000, minMessage: 10 } as const;

export const CONTACT_FORM_MESSAGES = {
  name: 'Zadajte svoje meno.',
  email: CONTACT_MESSAGES.email,
  phone: `${CONTACT_MESSAGES.phone} Telefón je nepovinný.`,
  message: `Napíšte správu (aspoň ${CONTACT_MESSAGE_LIMITS.minMessage} znakov, najviac ${CONTACT_MESSAGE_LIMITS.message}).`,
  sent: 'Ďakujeme, správu sme prijali. Ozveme sa vám najneskôr nasledujúci pracovný deň.',
  failed: 'Správu sa nepodarilo odoslať. Skúste to znova alebo nám zavolajte.',
  tooMany: 'Príliš veľa správ za krátky čas. Skúste to o chvíľu alebo nám zavolajte.',
} as const;

export function validateContactMessage(input: ContactMessageInput): ContactMessageErrors {
  const errors: ContactMessageErrors = {};
  const name = input.name.trim();
  const message = input.message.trim();
  if (name.length < 2 || name.length > CONTACT_MESSAGE_LIMITS.name) errors.name = CONTACT_FORM_MESSAGES.name;
  if (!isValidEmail(input.email)) errors.email = CONTACT_FORM_MESSAGES.email;
  if (input.phone.trim() !== '' && normalizeSlovakPhone(input.phone) === null) errors.phone = CONTACT_FORM_MESSAGES.phone;
  if (message.length < CONTACT_MESSAGE_LIMITS.minMessage || message.length > CONTACT_MESSAGE_LIMITS.message) {
    errors.message = CONTACT_FORM_MESSAGES.message;
  }
  return errors;
}
