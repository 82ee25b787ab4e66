/**
 * The consent notice in the first frame: the page carries it as plain HTML, so
 * it paints with the stylesheet, before any script, and works without
 * JavaScript (a form posting to /consent). The shell's React notice replaces
 * it when the shell renders.
 *
 * The HTML is the same for every visitor (a CDN may cache it): a one-line
 * script right after the notice removes it, before the first paint, when
 * this browser's cookies say the visitor has decided. The price: a visitor
 * without JavaScript sees it on every page (at the page's end, see below).
 */
import { CONSENT_DECIDED_COOKIE, CONSENT_NOTICE as TEXT, consentCookieStrings, isPrivacyPage } from '@shop/shared-kernel/rules';
import { escapeHtml } from '../infra/pure/html.ts';

/** The consent form's body: two cookies' choices, far below this (nginx in the cluster refuses at the same size). */
export const CONSENT_BODY_LIMIT = 4096;

/**
 * Removes the notice it follows when the visitor has decided (the kernel's rule: the decision
 * cookie is set), on document.cookie while the page is parsed.
 */
const REMOVE_WHEN_DECIDED =
  `<script>if(/(?:^|;\\s*)${CONSENT_DECIDED_COOKIE}=/.test(document.cookie))` +
  'document.currentScript.previousElementSibling.remove()</script>';

/**
 * Without JavaScript nothing but the technical cookies is ever set, and the page cannot tell whether
 * the visitor has answered: the notice (its form still works) sits at the end of the page instead
 * of floating over it.
 */
const NO_SCRIPT =
  '<noscript><style>.consent--floating{position:static;margin:1rem auto;box-shadow:none}' +
  'body:has(.consent--floating){padding-bottom:0}</style></noscript>';

/**
 * Static markup after `#root`, or '' when the page has no floating notice (the privacy page has it
 * in the page flow; `noConsent`: a route its area declares without consent).
 */
export function consentFirstFrame(pathWithQuery: string, noConsent = false): string {
  const pathname = pathWithQuery.split('?')[0] ?? '/';
  if (noConsent || isPrivacyPage(pathname)) return '';
  return (
    '<section class="consent consent--floating" role="dialog" aria-labelledby="consent-first-title" data-testid="consent-first-frame">' +
    `<h2 id="consent-first-title" class="consent__title">${TEXT.title}</h2>` +
    `<p>${TEXT.body} ${TEXT.moreIn} <a href="${TEXT.privacyPath}">${TEXT.privacyLink}</a>.</p>` +
    '<form method="post" action="/consent" class="consent__actions">' +
    `<input type="hidden" name="back" value="${escapeHtml(pathWithQuery)}">` +
    `<button type="submit" name="choice" value="all" class="button button--primary">${TEXT.acceptAll}</button>` +
    `<button type="submit" name="choice" value="none" class="button button--primary">${TEXT.rejectAll}</button>` +
    `<a class="button" href="${TEXT.privacyPath}">${TEXT.settings}</a>` +
    '</form></section>' +
    REMOVE_WHEN_DECIDED +
    NO_SCRIPT
  );
}

/** Set-Cookie values for "accept all" or "reject all", as the kernel's consent store writes them. */
export function consentCookies(choice: 'all' | 'none', secure: boolean): string[] {
  const granted = choice === 'all';
  return consentCookieStrings({ cookie_required: true, cookie_ga: granted, cookie_ads: granted }, { secure });
}

/** The longest way back the form may carry (the page's path and query; a longer one goes home). */
const BACK_LIMIT = 2000;

/**
 * Where to go back after the form: `back` resolved as a browser would against the shop's public
 * address (`publicUrl`, never the request's Host), and only when it stays on that origin; else the
 * home page. The answer is the resolved path and query, never the text as sent: a tab, a newline
 * or a backslash (`/\t/example.org`, `/\\example.org`) is read as the URL parser reads it, and a path
 * the parser leaves starting with `//` is cut to one slash, so no Location is another host's.
 */
export function safeBackPath(back: unknown, publicUrl: string): string {
  if (typeof back !== 'string' || back.length === 0 || back.length > BACK_LIMIT) return '/';
  const shop = new URL(publicUrl);
  let target: URL;
  try {
    target = new URL(back, shop);
  } catch {
    return '/';
  }
  if (target.origin !== shop.origin) return '/';
  return `/${target.pathname.replace(/^\/+/, '')}${target.search}`;
}
