import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { initKernel, useBasketStore, useFlagStore, bus } from '@shop/shared-kernel';
import { readEmbeddedServerData, type ServerRender } from '@shop/shared-kernel/react';
import { isNotFound } from '@shop/shared-kernel/rules';
import { readConfig } from './config.ts';
import { chooseReleases, fetchRegistry, type Registry } from './areas/registry.ts';
import { areaVersion, registerAreas } from './areas/area-loader.ts';
import { canaryBucket } from './areas/canary-bucket.ts';
import { setRouteTable } from './app/route-table.ts';
import { installTelemetry, reportError } from './app/telemetry.ts';
import { installVitals } from './app/vitals.ts';
import { installEcommerce } from './app/ecommerce.ts';
import { matchRoutesAhead, ShopRoutes } from './app/router.tsx';
import { ServerDataScope } from './app/server-data-scope.tsx';
import { setBootRevision } from './app/new-build.ts';
import { setConsentDefaults } from './app/analytics.ts';
import { reloadOnce } from './app/reload-guard.ts';
import { installLinkPreloading, startPageArea } from './areas/preload.ts';
import './styles.css';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/** Whether a failed dynamic import is the Web Vitals library's (vitals.ts loads it after the page). */
function isVitalsLibraryFailure(event: Event): boolean {
  const payload = (event as Event & { payload?: unknown }).payload;
  return payload instanceof Error && payload.message.includes('/vitals-library-');
}

/**
 * Whether a failed dynamic import is an area's chunk (its build's preload helper raises the same
 * event): the area loader tries it again and contains it (area-loader.ts); a reload would undo that.
 */
function isAreaChunkFailure(event: Event): boolean {
  const payload = (event as Event & { payload?: unknown }).payload;
  return payload instanceof Error && payload.message.includes('/remotes/');
}

async function boot() {
  // When the shell began (index.html starts it after the first contentful paint).
  performance.mark('shop:boot');
  const config = readConfig();
  // Consent Mode v2: everything denied until the shopper decides.
  setConsentDefaults();
  // A shell chunk that vanished after a deploy: one guarded reload. Not for the Web Vitals library:
  // measuring is optional, and a page must not reload because it could not fetch it (a server
  // restarting under an open page, a flaky connection).
  window.addEventListener('vite:preloadError', (event) => {
    if (isVitalsLibraryFailure(event) || isAreaChunkFailure(event)) return;
    void reloadOnce();
  });
  // The basket is read synchronously so the checkout guard sees it on a deep link.
  useBasketStore.getState().hydrate();
  // Page views and client errors reach the operator (sampled per page load, batched, no personal data).
  installTelemetry({ sampleRate: config.telemetrySample });
  bus.on('area:load-failed', ({ area, module, error }) =>
    reportError('load-failed', area, areaVersion(area as never), `${module}: ${error}`),
  );
  const registry: Registry = config.registry ?? (await fetchRegistry().catch(() => ({ revision: 'unavailable', areas: {} })));
  // One choice per page load: the canary or the stable version of each area, and the pages they ship.
  const bucket = canaryBucket();
  const releases = chooseReleases(registry, bucket);
  // The feature switches as the server rendered the page with them; the registry's events bring changes.
  useFlagStore.setState({ flags: config.flags ?? {}, bucket });
  registerAreas(releases, config.assetOrigin);
  setRouteTable(releases);
  setBootRevision(registry.revision);
  installLinkPreloading();
  // What the areas tell the page becomes GA4 e-commerce events (with the analytics consent only).
  installEcommerce();
  void initKernel();
  // The boot runs in a few tasks, not one: the browser can answer a tap or paint between them.
  await nextTask();
  // The page's own area loads alongside the rest of the boot, ready when hydration reaches it.
  startPageArea(window.location.pathname);
  await matchRoutesAhead(window.location.pathname, nextTask);
  await nextTask();
  // A page the server rendered is hydrated with the data it embedded (same markup, no second
  // request); any other page renders here.
  const embedded = readEmbeddedServerData();
  const served: ServerRender | null =
    embedded && embedded.path === window.location.pathname + window.location.search
      ? {
          data: new Map(Object.entries(embedded.data)),
          notFound: embedded.notFound,
          ...(embedded.basket ? { basket: embedded.basket } : {}),
        }
      : null;
  // Field Web Vitals in the same batches (the library loads after the page did).
  installVitals({ serverRendered: served !== null });
  const app = (
    <StrictMode>
      <BrowserRouter>
        <ServerDataScope value={served}>
          <ShopRoutes config={config} />
        </ServerDataScope>
      </BrowserRouter>
    </StrictMode>
  );
  const root = document.getElementById('root')!;
  // A page that is not found throws its 404 to the boundary that shows the not-found page: that is
  // the page's answer, not an error for the console. Anything else a boundary caught is logged as React does.
  const onCaughtError = (error: unknown) => {
    if (!isNotFound(error)) console.error(error);
  };
  performance.mark('shop:render');
  // Hydration as a transition: React yields to the browser every few milliseconds instead of
  // holding the main thread for the whole page, so a tap while it runs is answered (and replayed).
  if (served)
    startTransition(
      () =>
        void hydrateRoot(root, app, {
          onCaughtError,
          onRecoverableError: (error) => reportError('hydration', 'shell', null, String(error)),
        }),
    );
  else createRoot(root, { onCaughtError }).render(app);
}

void boot();
