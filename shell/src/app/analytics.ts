/**
 * Google Tag Manager with Consent Mode v2: everything is denied by default;
 * the shopper's choices update the four signals; the container script is
 * added only after consent, never on routes declared without consent
 * (`noConsent`: the operator's generate and pdf), and not at all when no
 * container id is configured.
 */
import { analyticsEnabled } from '@shop/shared-kernel/rules';
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

/** Applies the current choices for the current route (nothing at all on a route without consent). */
export function applyConsent(
  choices: ConsentChoices | null,
  route: { readonly noConsent?: boolean } | undefined,
  gtmId: string | null,
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
  if (!gtmId || !wanted || containerAdded) return;
  containerAdded = true;
  window.dataLayer!.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(gtmId)}`;
  script.dataset.tagManager = 'gtm';
  document.head.append(script);
}
