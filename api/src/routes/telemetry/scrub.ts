/**
 * Client error messages before they reach the log: the browser scrubs them already, the server
 * does it again (a report may come from anywhere). No personal data in the logs.
 */
import { MAX_MESSAGE_LENGTH } from './event-schema.ts';

/** Something@something: e-mail addresses (and anything that looks like one). */
const EMAIL = /[^\s@"'<>()[\]{},;:]+@[^\s@"'<>()[\]{},;:]+/g;
/** Six or more digits, also grouped by spaces or dashes (phone, order, card and account numbers). */
const LONG_NUMBER = /\d(?:[ -]?\d){5,}/g;

/** The message with e-mail addresses and long numbers masked, at most 300 characters. */
export function scrubMessage(message: string): string {
  // Masked first, then cut: a cut first could leave half an address that no longer looks like one.
  return message
    .slice(0, MAX_MESSAGE_LENGTH * 4)
    .replace(EMAIL, '[email]')
    .replace(LONG_NUMBER, '[number]')
    .slice(0, MAX_MESSAGE_LENGTH);
}
