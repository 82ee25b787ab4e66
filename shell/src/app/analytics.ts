/**
 * Google Tag Manager with Consent Mode v2: everything is denied by default;
 * the shopper's choices update the four signals; the container script is
 * added only after consent, never on routes declared without consent
 * (`noConsent`: the operator's generate and pdf), never on the basket, the
 * checkout, the payment pages or the account (`tagManagerMayRun`), and not at
 * all when no container id is configured. Its address goes through the shop's
 * Trusted Types policy, which admits the configured container only.
 *
 * A page that has the container cannot remove it: going from it to a page
 * where it may not run is a full page load (`leaveTagManagerBehind`).
 */
import { analyticsEnabled, tagManagerMayRun } from '@shop/shared-kernel/rules';
import { tagManagerScriptUrl, trustedScriptUrl } from '@shop/shared-kernel/react';
import type { ConsentChoices } from '@shop/shared-kernel/contract';

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

function gtag(..._args: unknown[]): void {
  window.dataLayer = window.dataLayer ?? [];
  // GTM reads the arguments object, not an array.
  // eslint-disable-next-line prefer-rest-params
  window.dataLayer.push(arguments);
}

let defaultsSet = false;
let containerAdded = false;

export function setConsentDefaults(): void {
  if (defaultsSet) return;
  defaultsSet = true;
  gtag('consent', 'default', {
    ad_storage: 'denied',
    ad_user_data: 'denied',
    ad_personalization: 'denied',
    analytics_storage: 'denied',
    wait_for_update: 500,
  });
}

const signal = (granted: boolean) => (granted ? 'granted' : 'denied');

/** Whether this page load has Tag Manager's container. */
export function tagManagerAdded(): boolean {
  return containerAdded;
}

/**
 * Before a page where Tag Manager may not run is shown in a page load that has it: load that page in
 * full (the URL has already changed), so its document never has the container. Answers whether it did.
 */
export function leaveTagManagerBehind(pathname: string, reload: () => void = () => window.location.reload()): boolean {
  if (!containerAdded || tagManagerMayRun(pathname)) return false;
  reload();
  return true;
}

/** Applies the current choices for the current route (nothing at all on a route without consent). */
export function applyConsent(
  choices: ConsentChoices | null,
  route: { readonly noConsent?: boolean } | undefined,
  gtmId: string | null,
  pathname: string = window.location.pathname,
): void {
  if (route?.noConsent === true || choices === null) return;
  setConsentDefaults();
  gtag('consent', 'update', {
    analytics_storage: signal(choices.cookie_ga),
    ad_storage: signal(choices.cookie_ads),
    ad_user_data: signal(choices.cookie_ads),
    ad_personalization: signal(choices.cookie_ads),
  });
  const wanted = analyticsEnabled(choices, route) || choices.cookie_ads;
  if (!gtmId || !wanted || containerAdded || !tagManagerMayRun(pathname)) return;
  containerAdded = true;
  window.dataLayer!.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = trustedScriptUrl(tagManagerScriptUrl(gtmId));
  script.dataset.tagManager = 'gtm';
  document.head.append(script);
}
