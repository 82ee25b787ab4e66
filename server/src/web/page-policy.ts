/**
 * The Content-Security-Policy of the shell's pages (infra/http/security-headers.ts builds it): the inline
 * scripts a page of a shell version runs are that version's own, the config reader's and the
 * consent notice's, so the policy follows from the shell's index.html alone.
 */
import { inlineScriptHashes, pagePolicy } from '../infra/http/security-headers.ts';
import { consentFirstFrame } from './consent-frame.ts';

/**
 * The page's configuration travels as a JSON block (never run, so no script of the page varies with
 * it) and this one fixed script hands it to the shell as window.__SHOP__: every inline script the
 * page runs is known per shell build and admitted by its hash.
 */
export const CONFIG_ID = 'shop-config';
export const CONFIG_READER = `<script>window.__SHOP__=JSON.parse(document.getElementById('${CONFIG_ID}').textContent)</script>`;

/** `reportTo`: the shop is served over https (its PUBLIC_URL), where browsers deliver Reporting API reports. */
export type PagePolicyOptions = { assetOrigin: string; tagManager: boolean; gateway: string | null; reportTo: boolean };

/** The inline scripts every page of the shell version whose index.html this is runs (the import map's aside). */
export function shellInlineScripts(indexHtml: string): string[] {
  return inlineScriptHashes(indexHtml + CONFIG_READER + consentFirstFrame('/'));
}

/** The policy of a page of that shell version, without an import map (what the inventory shows as the base). */
export function shellPagePolicy(indexHtml: string, options: PagePolicyOptions): string {
  return pagePolicy({ ...options, inlineScripts: shellInlineScripts(indexHtml) });
}
