/**
 * Client error messages before they leave the browser and before they reach the server's log
 * (a report may come from anywhere, so the server scrubs again): no personal data.
 */

/** The longest client error message kept (the API refuses longer ones). */
export const MAX_CLIENT_MESSAGE_LENGTH = 300;

/** A URL's query string and fragment removed (they may carry e-mails, tokens, search terms). */
const URL_WITH_QUERY = /\b([a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>]*)[?#][^\s"'<>]*/gi;
const PATH_WITH_QUERY = /(^|[\s("'=])(\/[^\s?#"'<>]*)\?[^\s"'<>]*/g;
/** Something@something: e-mail addresses (and anything that looks like one). */
const EMAIL = /[^\s@"'<>()[\]{},;:]+@[^\s@"'<>()[\]{},;:]+/g;
/** Six or more digits, also grouped by spaces or dashes (phone, order, card and account numbers). */
const LONG_NUMBER = /\d(?:[ -]?\d){5,}/g;

/** An error message as it may leave the browser: no query strings, no e-mail addresses or long numbers, 300 characters at most. */
export function scrubClientMessage(message: string): string {
  return message
    .slice(0, MAX_CLIENT_MESSAGE_LENGTH * 4)
    .replace(URL_WITH_QUERY, '$1')
    .replace(PATH_WITH_QUERY, '$1$2')
    .replace(EMAIL, '[email]')
    .replace(LONG_NUMBER, '[number]')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_CLIENT_MESSAGE_LENGTH);
}
