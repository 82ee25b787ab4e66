/**
 * The shop's one Trusted Types policy. The pages' Content-Security-Policy requires Trusted Types
 * for scripts (`require-trusted-types-for 'script'; trusted-types shop`): the browser refuses a
 * string given to an HTML or script sink (innerHTML, a script's src or text, …) and any second
 * policy. Only three places of the shop must write such a thing, each through a function here:
 * - `trustedHtml`: content HTML the API sanitised (static pages, blog posts), for
 *   `dangerouslySetInnerHTML`. Markup the sanitiser never lets through (a script, a handler, a
 *   frame, a style…) is refused here too: the page then shows nothing of it rather than run it;
 * - `trustedJsonScript`: a JSON-LD block's text (useJsonLd), only if it is JSON;
 * - `trustedScriptUrl`: the one third-party script, Tag Manager's container, only at the exact
 *   URL of the container the shop configured (its id pins the query the CSP cannot).
 *
 * Every part bundles this module ('/react'); the policy is created once per page and kept on
 * globalThis under a registered symbol (as the server-render context is), so every copy uses the
 * same one. Outside a browser, or in one without Trusted Types, the functions answer the string
 * (React writes it as it is; the server renders it into the HTML).
 */

import { TRUSTED_TYPES_POLICY, tagManagerScriptUrl } from '../rules/page-policy-rules.ts';

export { TRUSTED_TYPES_POLICY, tagManagerScriptUrl };

/**
 * Markup the API's sanitiser (server/src/infra/pure/content-html.ts) never lets through: an element
 * that runs or restyles the page, an event handler, a style attribute, a script: or data: address.
 * Its presence means the content was not sanitised. (Video iframes it keeps: frame-src decides.)
 */
const NEVER_SANITISED =
  /<\s*\/?\s*(script|object|embed|style|link|meta|base|form|svg|math|template|noscript|frame|frameset)\b|<[^>]*\s(on[a-z]+|srcdoc|style)\s*=|<[^>]*=\s*["']?\s*(javascript|vbscript|data):/i;

type Policy = {
  createHTML(input: string): unknown;
  createScript(input: string): unknown;
  createScriptURL(input: string): unknown;
};
type TrustedTypesFactory = { createPolicy(name: string, rules: Record<string, (input: string) => string>): Policy };

const KEY = Symbol.for('@shop/shared-kernel/trusted-types');
const holder = globalThis as { [KEY]?: Policy | null; trustedTypes?: TrustedTypesFactory; __SHOP__?: { gtmId?: string | null } };

class RefusedByPolicy extends TypeError {
  constructor(what: string) {
    super(`The shop's Trusted Types policy refused ${what}`);
    this.name = 'RefusedByPolicy';
  }
}

/** The page's policy, created on first use (null: no Trusted Types here). */
function policy(): Policy | null {
  if (holder[KEY] !== undefined) return holder[KEY];
  const factory = holder.trustedTypes;
  if (!factory) return (holder[KEY] = null);
  // The container the page's configuration names, read once: the policy never admits another.
  const gtmId = holder.__SHOP__?.gtmId ?? null;
  const allowedScript = gtmId ? tagManagerScriptUrl(gtmId) : null;
  const created = factory.createPolicy(TRUSTED_TYPES_POLICY, {
    createHTML: (input) => {
      if (NEVER_SANITISED.test(input)) throw new RefusedByPolicy('HTML that was not sanitised');
      return input;
    },
    createScript: (input) => {
      JSON.parse(input);
      return input;
    },
    createScriptURL: (input) => {
      if (input !== allowedScript) throw new RefusedByPolicy(`the script ${input.slice(0, 100)}`);
      return input;
    },
  });
  return (holder[KEY] = Object.freeze(created));
}

/** Sanitised content HTML for `dangerouslySetInnerHTML={{ __html: trustedHtml(html) }}` (React passes the TrustedHTML on). */
export function trustedHtml(html: string): string {
  return (policy()?.createHTML(html) as string | undefined) ?? html;
}

/** A JSON-LD block's text for a script element's textContent. */
export function trustedJsonScript(json: string): string {
  return (policy()?.createScript(json) as string | undefined) ?? json;
}

/** The configured Tag Manager container's URL for a script's src; anything else is refused. */
export function trustedScriptUrl(url: string): string {
  return (policy()?.createScriptURL(url) as string | undefined) ?? url;
}
