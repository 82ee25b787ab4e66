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

/** The Web Vitals the shell reports (Google's web-vitals library): times in ms, CLS a unitless score. */
export type VitalName = 'lcp' | 'inp' | 'cls' | 'fcp' | 'ttfb';
export const VITAL_NAMES: readonly VitalName[] = ['lcp', 'inp', 'cls', 'fcp', 'ttfb'];
/** A time the browser reports at most (ms): one minute; a longer one is reported as this. */
export const MAX_VITAL_MS = 60_000;
/** The largest CLS a browser reports; a larger one is reported as this. */
export const MAX_VITAL_CLS = 10;
/** An attribution's length at most (an element's selector, scrubbed). */
export const MAX_VITAL_TARGET_LENGTH = 80;

/** A vital's value as reported: bounded, whole ms for times, 4 decimals for CLS; null when not a number. */
export function boundVitalValue(metric: VitalName, value: number): number | null {
  if (!Number.isFinite(value)) return null;
  if (metric === 'cls') return Math.round(Math.min(MAX_VITAL_CLS, Math.max(0, value)) * 10_000) / 10_000;
  return Math.round(Math.min(MAX_VITAL_MS, Math.max(0, value)));
}

/**
 * An attribution as it may leave the browser: an element's selector (`main>img.cat-gallery__img`)
 * with no query, no quoted value (an attribute may carry what a shopper typed), no number of 4 digits
 * or more, only selector characters, at most MAX_VITAL_TARGET_LENGTH characters.
 */
export function scrubVitalTarget(target: string): string {
  return target
    .slice(0, 500)
    .replace(/(["'])[^"']*\1/g, '$1$1')
    .replace(/\?.*$/, '')
    .replace(/\d{4,}/g, '0')
    .replace(/[^A-Za-z0-9_.#>:() *[\]="'-]/g, '')
    .trim()
    .slice(0, MAX_VITAL_TARGET_LENGTH);
}
