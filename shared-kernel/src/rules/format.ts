/**
 * Display formatting for Slovak (sk-SK), requirements R9.2: two decimals, whole
 * numbers without decimals, comma as decimal separator, thousands grouped
 * with a non-breaking space, euro sign after a non-breaking space,
 * percentages as integers, dates dd.mm.yyyy in UTC.
 */
import { AMOUNT_SCALE } from './money.ts';

const NBSP = '\u00a0';

/** Thousands grouped with a non-breaking space, as sk-SK does from four digits on: "1 234". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, NBSP);
}

/**
 * Formats a number of cents: whole euros without decimals, otherwise two decimals. Written out
 * rather than with `Intl.NumberFormat('sk-SK')`: a browser's first number formatter makes a long
 * task of main thread in the shell's boot, far longer on a phone; the tests compare the two over
 * many values.
 */
function formatCents(cents: number): string {
  const whole = Math.trunc(Math.abs(cents) / 100);
  const rest = Math.abs(cents) % 100;
  const text = rest === 0 ? groupThousands(String(whole)) : `${groupThousands(String(whole))},${String(rest).padStart(2, '0')}`;
  return cents < 0 ? `-${text}` : text;
}

/**
 * Formats thousandths of a euro: 12500 → "12,50 €", 12000 → "12 €",
 * 1234560 → "1 234,56 €" (spaces are U+00A0). Rounded to whole cents first,
 * so 11999 → "12 €".
 */
export function formatPrice(thousandths: number): string {
  const cents = Math.round(thousandths / (AMOUNT_SCALE / 100));
  return `${formatCents(cents)}${NBSP}€`;
}

/**
 * Formats a plain number (not thousandths) with the same rule as prices:
 * 12.5 → "12,50", 12 → "12", 1234.567 → "1 234,57".
 * Divide amounts in thousandths by AMOUNT_SCALE before calling.
 */
export function formatNumber(value: number): string {
  return formatCents(Math.round(value * 100));
}

/** An integer percent: 15 → "15 %", 14.6 → "15 %" (space is U+00A0). */
export function formatPercent(percent: number): string {
  return `${formatCents(Math.round(percent) * 100)}${NBSP}%`;
}

/**
 * dd.mm.yyyy of the UTC calendar day (requirements R9.2: dates dd.mm.yyyy in UTC); an invalid date
 * gives "". The one date rule for everything a shopper sees: pages, e-mails and the invoice PDF
 * (the API imports it from '@shop/shared-kernel/rules').
 */
export function formatDate(d: Date | string | number): string {
  const date = d instanceof Date ? d : new Date(d);
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const day = String(date.getUTCDate()).padStart(2, '0');
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  return `${day}.${month}.${year}`;
}

/** A price, or "zadarmo" when it is nothing (shipping and payment fees). */
export function formatFee(thousandths: number): string {
  return thousandths === 0 ? 'zadarmo' : formatPrice(thousandths);
}

/** An IBAN in groups of four: "SK12 3456 7890 …". */
export function formatIban(iban: string): string {
  return iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** A Slovak phone number as people write it: "+421 905 123 456"; anything else as given. */
export function formatPhone(phone: string): string {
  const compact = phone.replace(/[\s/-]/g, '');
  const slovak = /^(?:\+421|00421|0)(\d{3})(\d{3})(\d{3})$/.exec(compact);
  return slovak ? `+421 ${slovak[1]} ${slovak[2]} ${slovak[3]}` : phone;
}

/** A Slovak postcode (PSČ) as written: "010 01"; anything else as given. */
export function formatZip(zip: string): string {
  const digits = zip.replace(/\s/g, '');
  return /^\d{5}$/.test(digits) ? `${digits.slice(0, 3)} ${digits.slice(3)}` : zip;
}
