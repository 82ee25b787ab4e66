import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useConsentStore } from '@shop/shared-kernel';
import { ConsentNotice } from '../components/consent-notice.tsx';
import { applyConsent } from './analytics.ts';
import { routeNameForPath } from './route-table.ts';
import { useNewBuildDetection } from './new-build.ts';
import { useDeviceRefresh, useFocusOnNavigation, useScrollReset, useServerRedirect } from './route-effects.ts';
import type { ShellConfig } from '../config.ts';

/** The root of every layout: consent, analytics and the effects of route changes. */
export function ShellRoot({ config }: { config: ShellConfig }) {
  const { pathname } = useLocation();
  const routeName = routeNameForPath(pathname);
  const consentOff = routeName === 'generate' || routeName === 'pdf';
  const { choices, noticeVisible, settingsOpen } = useConsentStore();

  useServerRedirect();
  useFocusOnNavigation();
  useScrollReset();
  useDeviceRefresh();
  useNewBuildDetection(config.registryPollMs);
  useEffect(() => applyConsent(choices, routeName, config.gtmId), [choices, routeName, config.gtmId]);

  const showNotice = !consentOff && (noticeVisible || settingsOpen);
  const plain = pathname.includes('ochrana-sukromia');
  return (
    <>
      {showNotice && plain && <ConsentNotice plain />}
      <Outlet />
      {showNotice && !plain && <ConsentNotice plain={false} />}
    </>
  );
}
