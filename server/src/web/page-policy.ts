/**
 * The Content-Security-Policy of the shell's pages (infra/http/security-headers.ts builds it): the
 * inline scripts and styles a page of a shell version has are that version's own, the config
 * reader's and the consent notice's, so the base of the policy follows from the shell's index.html
 * alone; a page adds the hash of its import map and of the area styles its server render put in the
 * head, and admits Tag Manager only where it may run.
 */
import { tagManagerMayRun } from '@shop/shared-kernel/rules';
import { inlineScriptHashes, inlineStyleHashes, pagePolicy, styleHash } from '../infra/http/security-headers.ts';
import { consentFirstFrame } from './consent-frame.ts';

/**
 * The page's configuration travels as a JSON block (never run, so no script of the page varies with
 * it) and this one fixed script hands it to the shell as window.__SHOP__: every inline script the
 * page runs is known per shell build and admitted by its hash.
 */
export const CONFIG_ID = 'shop-config';
export const CONFIG_READER = `<script>window.__SHOP__=JSON.parse(document.getElementById('${CONFIG_ID}').textContent)</script>`;

/**
 * `tagManager`: a Tag Manager container is configured (GTM_ID); `reportTo`: the shop is served over
 * https (its PUBLIC_URL), where browsers deliver Reporting API reports.
 */
export type PagePolicyOptions = {
  assetOrigin: string;
  tagManager: boolean;
  gateway: string | null;
  reportTo: boolean;
  /** A local override's loopback origin, on the pages of the one browser holding it. */
  localOrigin?: string | null;
};

/** What every page of a shell version has inline: its scripts and its styles (the shell's own, the config reader's, the consent notice's). */
export type ShellInline = { scripts: string[]; styles: string[] };

/** The inline scripts and styles every page of the shell version whose index.html this is has (the import map's and an area's aside). */
export function shellInline(indexHtml: string): ShellInline {
  const fixed = indexHtml + CONFIG_READER + consentFirstFrame('/');
  return { scripts: inlineScriptHashes(fixed), styles: inlineStyleHashes(fixed) };
}

/** An area's CSS as a `<style>` block's text (web/ssr/page-html.ts writes it so; the policy hashes exactly this). */
export const areaStyleText = (css: string): string => css.replace(/<\/style/gi, '<\\/style');

/** The hashes of the area styles a server render wrote into the page. */
export function areaStyleHashes(styles: readonly { css: string }[]): string[] {
  return styles.map((style) => styleHash(areaStyleText(style.css)));
}

/**
 * The policy of one page: the shell's inline scripts and styles, the page's import map and
 * server-rendered area styles, and Tag Manager only when configured, the page is one it may run on
 * (never the basket, checkout, payment or account pages) and its route takes consent.
 */
export function shellPagePolicyFor(
  shell: ShellInline,
  options: PagePolicyOptions,
  page: { pathname: string; noConsent?: boolean; importMapHash?: string | null; areaStyles?: readonly { css: string }[] },
): string {
  return pagePolicy({
    ...options,
    tagManager: options.tagManager && page.noConsent !== true && tagManagerMayRun(page.pathname),
    inlineScripts: page.importMapHash ? [...shell.scripts, page.importMapHash] : shell.scripts,
    inlineStyles: [...shell.styles, ...areaStyleHashes(page.areaStyles ?? [])],
  });
}

/** The policy of a home page of that shell version, without an import map (what the inventory shows as the base). */
export function shellPagePolicy(indexHtml: string, options: PagePolicyOptions): string {
  return shellPagePolicyFor(shellInline(indexHtml), options, { pathname: '/' });
}
