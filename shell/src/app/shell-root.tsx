import { useEffect, useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useConsentStore } from '@shop/shared-kernel';
import { isPrivacyPage } from '@shop/shared-kernel/rules';
import { useAfterHydration } from '@shop/shared-kernel/react';
import { ConsentNotice } from '../components/consent-notice.tsx';
import { BasketToast } from '../components/basket-toast.tsx';
import { applyConsent, leaveTagManagerBehind } from './analytics.ts';
import { routeForPath, type ShopRoute } from './route-table.ts';
import { useNewBuildDetection } from './new-build.ts';
import { useDeviceRefresh, useFocusOnNavigation, useScrollReset, useStoredRedirects } from './route-effects.ts';
import type { ShellConfig } from '../config.ts';
import type { AreaName } from '../areas/registry.ts';

/**
 * The root of every layout: consent, analytics and the effects of route changes. It holds no state
 * of this browser itself: what changes when the page has hydrated (the consent notice, the
 * visitor's choices) lives in <Consent>, so that change re-renders the notice, not the whole page
 * under <Outlet> (a synchronous render React cannot split: a long task on a phone's main thread).
 */
export function ShellRoot({ config }: { config: ShellConfig }) {
  const { pathname } = useLocation();
  // The route table entry decides: a route its area declares without consent has no notice and no analytics.
  const route = routeForPath(pathname);

  // Before the page is painted: a page load with Tag Manager does not show the checkout or the account.
  useLayoutEffect(() => void leaveTagManagerBehind(pathname), [pathname]);
  useStoredRedirects();
  useFocusOnNavigation();
  useScrollReset();
  useDeviceRefresh();
  useNewBuildDetection(config.registryPollMs);
  // The privacy page (the kernel's consent rules) has the notice in the page flow.
  const plain = isPrivacyPage(pathname);
  return (
    <>
      {config.preview && <PreviewBanner preview={config.preview} />}
      {plain && <Consent route={route} gtmId={config.gtmId} plain />}
      <Outlet />
      <BasketToast />
      {!plain && <Consent route={route} gtmId={config.gtmId} plain={false} />}
    </>
  );
}

/** An area in a sentence, as a shopper names it („Skúšobná verzia: košík z localhost“). */
const AREA_IN_A_SENTENCE: Record<AreaName, string> = { catalog: 'katalóg', checkout: 'košík', account: 'účet', content: 'obsah' };

/** Which version this browser alone sees, and the way back to the one in force. */
function PreviewBanner({ preview }: { preview: NonNullable<ShellConfig['preview']> }) {
  return (
    <p className="preview-banner" role="status" data-testid="preview-banner">
      {preview.local ? (
        <>
          Skúšobná verzia: {AREA_IN_A_SENTENCE[preview.area as AreaName] ?? preview.area} z localhost (<code>{preview.local}</code>, zostava{' '}
          <code>{preview.version}</code>)
        </>
      ) : (
        <>
          Náhľad verzie{' '}
          <code>
            {preview.area} {preview.version}
          </code>
        </>
      )}{' '}
      – vidíte ju len v tomto prehliadači. <a href={preview.endPath}>Ukončiť náhľad</a>
    </p>
  );
}

/** The visitor's consent: analytics as chosen, and the notice while nothing is decided. */
function Consent({ route, gtmId, plain }: { route: Pick<ShopRoute, 'noConsent'> | undefined; gtmId: string | null; plain: boolean }) {
  const consentOff = route?.noConsent === true;
  const { choices, noticeVisible, settingsOpen } = useConsentStore();
  // Runs when the route changes (a route is one table entry): applyConsent reads the page's path itself.
  useEffect(() => applyConsent(choices, route, gtmId), [choices, route, gtmId]);

  // The notice depends on this browser's cookies, so it is never in the server's HTML: the static
  // first-frame notice (its inline script removes it at once for a visitor who decided) stands in
  // until the shell has hydrated, and is removed here, in the commit that shows the real one (no
  // frame with both or neither).
  const afterHydration = useAfterHydration();
  const showNotice = afterHydration && !consentOff && (noticeVisible || settingsOpen);
  useLayoutEffect(() => {
    if (afterHydration) document.querySelector('[data-testid="consent-first-frame"]')?.remove();
  }, [afterHydration]);
  return showNotice ? <ConsentNotice plain={plain} /> : null;
}
