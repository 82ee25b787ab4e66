/**
 * Consent facts without React or a store, so the server can use them too:
 * the three cookies (requirements R3.8, R4.6), how long they last, how to read
 * them from a Cookie header, and the notice's wording.
 */
import type { ConsentChoices } from '../contract/index.ts';
import { shopPaths } from '../contract/shop-paths.ts';
import { cookieValues } from './cookies.ts';

export const CONSENT_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
export const CONSENT_COOKIES = ['cookie_required', 'cookie_ga', 'cookie_ads'] as const;
/** The cookie whose presence means the visitor has decided (whatever they chose). */
export const CONSENT_DECIDED_COOKIE = 'cookie_required';

/** Choices from a document.cookie string or a Cookie header; null while cookie_required is not set. */
export function parseConsentCookies(cookieString: string): ConsentChoices | null {
  const values = cookieValues(cookieString);
  if (!values.has(CONSENT_DECIDED_COOKIE)) return null;
  return {
    cookie_required: true,
    cookie_ga: values.get('cookie_ga') === 'true',
    cookie_ads: values.get('cookie_ads') === 'true',
  };
}

/** The three Set-Cookie / document.cookie strings that store a decision, for a year. */
export function consentCookieStrings(choices: ConsentChoices, options: { secure: boolean; now?: number }): string[] {
  const expires = new Date((options.now ?? Date.now()) + CONSENT_COOKIE_MAX_AGE_S * 1000).toUTCString();
  return CONSENT_COOKIES.map(
    (name) =>
      `${name}=${String(choices[name])}; Max-Age=${CONSENT_COOKIE_MAX_AGE_S}; Expires=${expires}; Path=/; SameSite=Lax${options.secure ? '; Secure' : ''}`,
  );
}

/** The notice's wording, one source for the shell's notice and the server's first frame. */
export const CONSENT_NOTICE = {
  title: 'Súbory cookies',
  body: 'Používame technické cookies nevyhnutné na fungovanie obchodu. S vaším súhlasom aj analytické a reklamné.',
  moreIn: 'Viac v',
  privacyLink: 'ochrane súkromia',
  privacyPath: shopPaths.page('ochrana-sukromia'),
  acceptAll: 'Prijať všetko',
  rejectAll: 'Odmietnuť všetko',
  settings: 'Nastavenia',
} as const;

/**
 * The privacy page shows the notice in the page flow, not floating (the shell's notice and the
 * server's first frame both ask here).
 */
export function isPrivacyPage(pathname: string): boolean {
  return (pathname.replace(/\/+$/, '') || '/') === CONSENT_NOTICE.privacyPath;
}

/**
 * Analytics runs only with the analytics consent and never on a route its area declares
 * without consent (`noConsent` in the route table: the operator's generate and pdf, spec
 * sections 2 and 4).
 */
export function analyticsEnabled(
  choices: ConsentChoices | null,
  route: { readonly name?: string; readonly noConsent?: boolean } | null | undefined,
): boolean {
  if (route?.noConsent === true) return false;
  return choices?.cookie_ga === true;
}

/**
 * Where card data, addresses and accounts are typed, Tag Manager never runs (requirements R4.6): the basket and the
 * checkout (`/checkout…`), the payment pages (`/payment…`), the account (`/account…`) and the
 * operators' page. The server leaves its host out of those pages' policy and the shell's loader
 * never adds it there; a page that has it loads these pages in full, without it.
 */
const NO_TAG_MANAGER = /^\/(checkout|payment|account|ops)(\/|$)/i;

export function tagManagerMayRun(pathname: string): boolean {
  // As the browser resolves it: `//`, `/./`, a backslash or an escaped letter must not slip past the rule.
  let path: string;
  try {
    path = decodeURIComponent(new URL(`/${pathname.replace(/^[/\\]+/, '')}`, 'http://shop.invalid').pathname);
  } catch {
    return false;
  }
  return !NO_TAG_MANAGER.test(path.replace(/\/{2,}/g, '/'));
}
