/**
 * The consent notice in the first frame: index.html carries it as plain HTML
 * for a visitor who has not decided yet, so it paints with the stylesheet,
 * before any script, and works without JavaScript (a form posting to
 * /consent). The shell's React notice replaces it when the shell renders.
 */
import { CONSENT_NOTICE as TEXT, consentCookieStrings, isPrivacyPage, parseConsentCookies } from '@shop/shared-kernel/rules';
import { escapeHtml } from '../lib/html.ts';

/**
 * Static markup for `#root`, or '' when the visitor already decided or the page has no floating
 * notice (the privacy page has it in the page flow; `noConsent`: a route its area declares without consent, such as the operator's tools).
 */
export function consentFirstFrame(cookieHeader: string | undefined, pathWithQuery: string, noConsent = false): string {
  const pathname = pathWithQuery.split('?')[0] ?? '/';
  if (noConsent || parseConsentCookies(cookieHeader ?? '') || isPrivacyPage(pathname)) return '';
  return (
    '<section class="consent consent--floating" role="dialog" aria-labelledby="consent-first-title" data-testid="consent-first-frame">' +
    `<h2 id="consent-first-title" class="consent__title">${TEXT.title}</h2>` +
    `<p>${TEXT.body} ${TEXT.moreIn} <a href="${TEXT.privacyPath}">${TEXT.privacyLink}</a>.</p>` +
    '<form method="post" action="/consent" class="consent__actions">' +
    `<input type="hidden" name="back" value="${escapeHtml(pathWithQuery)}">` +
    `<button type="submit" name="choice" value="all" class="button button--primary">${TEXT.acceptAll}</button>` +
    `<button type="submit" name="choice" value="none" class="button button--primary">${TEXT.rejectAll}</button>` +
    `<a class="button" href="${TEXT.privacyPath}">${TEXT.settings}</a>` +
    '</form></section>'
  );
}

/** Set-Cookie values for "accept all" or "reject all", as the kernel's consent store writes them. */
export function consentCookies(choice: 'all' | 'none', secure: boolean): string[] {
  const granted = choice === 'all';
  return consentCookieStrings({ cookie_required: true, cookie_ga: granted, cookie_ads: granted }, { secure });
}

/** Where to go back after the form: a same-origin path only. */
export function safeBackPath(back: unknown): string {
  return typeof back === 'string' && back.startsWith('/') && !back.startsWith('//') && !back.includes('\\') ? back : '/';
}
