import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useConsentStore } from '@shop/shared-kernel';
import { isPrivacyPage } from '@shop/shared-kernel/rules';
import { useHydrated } from '@shop/shared-kernel/react';
import { ConsentNotice } from '../components/consent-notice.tsx';
import { BasketToast } from '../components/basket-toast.tsx';
import { applyConsent } from './analytics.ts';
import { routeForPath } from './route-table.ts';
import { useNewBuildDetection } from './new-build.ts';
import { useDeviceRefresh, useFocusOnNavigation, useScrollReset, useServerRedirect } from './route-effects.ts';
import type { ShellConfig } from '../config.ts';

/** The root of every layout: consent, analytics and the effects of route changes. */
export function ShellRoot({ config }: { config: ShellConfig }) {
  const { pathname } = useLocation();
  // The route table entry decides: a route its area declares without consent (the operator's tools) has no notice and no analytics.
  const route = routeForPath(pathname);
  const consentOff = route?.noConsent === true;
  const { choices, noticeVisible, settingsOpen } = useConsentStore();

  useServerRedirect();
  useFocusOnNavigation();
  useScrollReset();
  useDeviceRefresh();
  useNewBuildDetection(config.registryPollMs);
  useEffect(() => applyConsent(choices, route, config.gtmId), [choices, route, config.gtmId]);

  // The notice depends on this browser's cookies, so it is never in the server's HTML: the static
  // first-frame notice (its inline script removes it at once for a visitor who decided) stands in
  // until the shell has hydrated, and is removed here.
  const afterHydration = useHydrated();
  const showNotice = afterHydration && !consentOff && (noticeVisible || settingsOpen);
  useEffect(() => {
    if (afterHydration) document.querySelector('[data-testid="consent-first-frame"]')?.remove();
  }, [afterHydration]);
  // The privacy page (the kernel's consent rules) has the notice in the page flow.
  const plain = isPrivacyPage(pathname);
  return (
    <>
      {config.preview && (
        <p className="preview-banner" role="status" data-testid="preview-banner">
          Náhľad verzie <code>{config.preview.area} {config.preview.version}</code> – vidíte ju len v tomto prehliadači.{' '}
          <a href={config.preview.endPath}>Ukončiť náhľad</a>
        </p>
      )}
      {showNotice && plain && <ConsentNotice plain />}
      <Outlet />
      <BasketToast />
      {showNotice && !plain && <ConsentNotice plain={false} />}
    </>
  );
}
